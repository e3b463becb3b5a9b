import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReportSymbol } from '@memtrail/contracts';
import { generateReport } from '@memtrail/report';

/**
 * Source files of every function against GNU addr2line, on firmware compiled in the test run from
 * a C file and an assembly file and linked with newlib's string functions (Debian's
 * libnewlib-arm-none-eabi: memcpy and strcmp are assembly there), with and without -g.
 */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'source-files');
const CPU = ['-mcpu=cortex-m4', '-mthumb'];

interface Firmware {
  dir: string;
  elf: string;
  map: string;
}

function build(debug: boolean): Firmware {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-sources-'));
  const g = debug ? ['-g'] : [];
  const run = (args: string[]) => execFileSync('arm-none-eabi-gcc', args, { cwd: fixtures });
  run([...CPU, ...g, '-O1', '-ffunction-sections', '-c', 'app.c', '-o', join(dir, 'app.o')]);
  run([...CPU, ...g, '-c', 'startup.s', '-o', join(dir, 'startup.o')]);
  const elf = join(dir, 'fw.elf');
  const map = join(dir, 'fw.map');
  run([
    ...CPU,
    '-nostartfiles',
    '-T',
    'firmware.ld',
    join(dir, 'app.o'),
    join(dir, 'startup.o'),
    '-lc',
    '-o',
    elf,
    `-Wl,-Map=${map}`,
  ]);
  return { dir, elf, map };
}

/**
 * addr2line's answer for each function: file and line, or undefined for `??`. One run per
 * address: given several, addr2line 2.40 answers some later ones `??` that it resolves alone
 * (which units it has read depends on the earlier addresses).
 */
function addr2line(elf: string, functions: ReportSymbol[]) {
  return functions.map((f) => {
    const out = execFileSync(
      'arm-none-eabi-addr2line',
      ['-e', elf, (f.address - (f.address % 2)).toString(16)],
      { encoding: 'utf8' },
    );
    const [, file, number] = /^(.*):(\d+|\?)(?: \(discriminator \d+\))?$/.exec(out.trim())!;
    return file === '??' ? undefined : { file: file!, line: number === '?' ? 0 : Number(number) };
  });
}

/** The FILE symbol of an object, or the object's name when it has none (ld then adds one). */
function objectFileSymbol(object: string): string {
  const out = execFileSync('arm-none-eabi-readelf', ['-s', '-W', object], { encoding: 'utf8' });
  return /\sFILE\s+LOCAL\s+DEFAULT\s+ABS\s+(\S+)$/m.exec(out)?.[1] ?? basename(object);
}

function functionsOf(symbols: ReportSymbol[]): ReportSymbol[] {
  return symbols.filter((s) => s.type === 'FUNC' && s.section !== '');
}

/** Compares every function's source with addr2line's; returns them by name for further checks. */
function expectAddr2line(firmware: Firmware, symbols: ReportSymbol[]) {
  const functions = functionsOf(symbols);
  const truth = addr2line(firmware.elf, functions);
  functions.forEach((f, i) => {
    const expected = truth[i];
    const ours = f.source_file
      ? f.source_file_from
        ? { file: f.source_file, line: f.source_line }
        : {
            // DWARF paths are relative to the compile directory (fixtures) when inside it.
            file: isAbsolute(f.source_file) ? f.source_file : join(fixtures, f.source_file),
            line: f.source_line,
          }
      : undefined;
    const theirs =
      expected && !f.source_file_from
        ? { file: normalize(expected.file), line: expected.line }
        : expected;
    expect({ name: f.name, source: ours }).toEqual({ name: f.name, source: theirs });
  });
  return new Map(functions.map((f) => [f.name, f]));
}

describe('source files against addr2line', () => {
  let withDebug: Firmware;
  let withoutDebug: Firmware;

  beforeAll(() => {
    withDebug = build(true);
    withoutDebug = build(false);
  });

  it('with -g: every function as addr2line, assembly functions from the line table', () => {
    const report = generateReport({ elf: withDebug.elf });
    const byName = expectAddr2line(withDebug, report.symbols);
    // newlib's memcpy is assembly right after memcmp.c's code: its own line table names it.
    expect(byName.get('memcpy')!.source_file).toMatch(/\/memcpy-armv7m\.S$/);
    expect(byName.get('memcmp')!.source_file).toMatch(/\/memcmp\.c$/);
    expect(byName.get('Reset_Handler')).toMatchObject({ source_file: 'startup.s' });
    expect(byName.get('clear_registers')).toMatchObject({ source_file: 'startup.s' });
    expect(functionsOf(report.symbols).every((f) => f.source_file !== '')).toBe(true);
  });

  it('without -g: local functions from the symbol table like addr2line, newlib still from DWARF', () => {
    const report = generateReport({ elf: withoutDebug.elf });
    const byName = expectAddr2line(withoutDebug, report.symbols);
    expect(byName.get('checksum')).toMatchObject({
      source_file: 'app.c',
      source_line: 0,
      source_file_from: 'symbol_table',
    });
    expect(byName.get('clear_registers')).toMatchObject({
      source_file: 'startup.o',
      source_file_from: 'symbol_table',
    });
    expect(byName.get('main')!.source_file).toBe('');
    expect(byName.get('memcpy')!.source_file).toMatch(/\/memcpy-armv7m\.S$/);
  });

  it('without -g but with the map: globals get the file of the object the map names', () => {
    const report = generateReport({ elf: withoutDebug.elf, mapFile: withoutDebug.map });
    const fromMap = report.symbols.filter((s) => s.source_file_from === 'map_file');
    expect(fromMap.map((s) => s.name).sort()).toEqual(
      ['Reset_Handler', '_exit', 'inbox', 'length', 'main', 'outbox', 'relay'].sort(),
    );
    for (const symbol of fromMap)
      expect([symbol.name, symbol.source_file]).toEqual([
        symbol.name,
        objectFileSymbol(symbol.object_file!),
      ]);
    // The static variable is in app.o's group of the symbol table.
    expect(report.symbols.find((s) => s.name === 'checksum_seed')).toMatchObject({
      source_file: objectFileSymbol(join(withoutDebug.dir, 'app.o')),
      source_file_from: 'symbol_table',
    });
  });
});
