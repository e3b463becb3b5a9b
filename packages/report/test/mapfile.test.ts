import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  MapAttribution,
  detectMapFormat,
  parseGnuLdMap,
  parseIarMap,
  parseLldMap,
  parseMapFile,
  splitInputFile,
  type MapRange,
} from '../src/mapfile/index.js';

const fixtures = join(import.meta.dirname, 'fixtures', 'mapfile');
const work = mkdtempSync(join(tmpdir(), 'memtrail-mapfile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CFLAGS = [
  '-mcpu=cortex-m4',
  '-mthumb',
  '-O1',
  '-ffunction-sections',
  '-fdata-sections',
  '-fcommon',
  '-g0',
];

function run(tool: string, args: string[]): string {
  return execFileSync(tool, args, { cwd: work }).toString();
}

/** name → candidate "archive|object" that define it, from nm on the link inputs. */
function definitions(inputs: string[]): Map<string, Set<string>> {
  const defs = new Map<string, Set<string>>();
  const add = (name: string, where: string): void => {
    if (!defs.has(name)) defs.set(name, new Set());
    defs.get(name)!.add(where);
  };
  for (const input of inputs) {
    for (const line of run('arm-none-eabi-nm', ['-A', '--defined-only', input]).split('\n')) {
      // "libutil.a:util.o:00000000 T util_checksum" or "main.o:00000000 T main"
      const match = /^(.*?):(?:(.*?):)?[0-9a-f]+ \S (.+)$/.exec(line);
      if (!match) continue;
      const archive = match[2] === undefined ? '' : basename(input);
      const object = match[2] ?? match[1]!;
      add(match[3]!, `${archive}|${object}`);
    }
  }
  return defs;
}

interface ElfSymbol {
  name: string;
  address: number;
  func: boolean;
}

function elfSymbols(elf: string): ElfSymbol[] {
  return run('arm-none-eabi-nm', ['--defined-only', elf])
    .split('\n')
    .map((line) => line.split(' '))
    .filter((parts) => parts.length === 3 && !/[aA]/.test(parts[1]!))
    .map(([address, type, name]) => ({
      name: name!,
      address: parseInt(address!, 16),
      func: /[tT]/.test(type!),
    }));
}

function where(range: MapRange | null): string | null {
  return range ? `${basename(range.archive)}|${range.object}` : null;
}

let libgcc: string;
let defs: Map<string, Set<string>>;

beforeAll(() => {
  for (const f of ['startup', 'main', 'util', 'crc']) {
    run('arm-none-eabi-gcc', [...CFLAGS, '-c', join(fixtures, `${f}.c`), '-o', `${f}.o`]);
  }
  run('arm-none-eabi-ar', ['rcs', 'libutil.a', 'util.o', 'crc.o']);
  libgcc = run('arm-none-eabi-gcc', [
    '-mcpu=cortex-m4',
    '-mthumb',
    '-print-libgcc-file-name',
  ]).trim();
  defs = definitions(['startup.o', 'main.o', 'libutil.a', libgcc]);
});

/** Every symbol of the ELF that some input defines must be attributed to one that does. */
function expectEverySymbolAttributed(map: string, symbols: ElfSymbol[]): void {
  const attribution = parseMapFile(map);
  const checked = symbols.filter((s) => defs.has(s.name));
  expect(checked.length).toBeGreaterThan(15);
  const wrong = checked
    .map((s) => {
      // Reports keep the Thumb bit in function addresses; nm prints it cleared.
      const address = s.func ? s.address | 1 : s.address;
      return { name: s.name, address, got: where(attribution.attribute(address)) };
    })
    .filter((row) => row.got === null || !defs.get(row.name)!.has(row.got));
  expect(wrong).toEqual([]);
}

describe('GNU ld map files, checked against nm on a real link', () => {
  let map: string;
  let symbols: ElfSymbol[];

  beforeAll(() => {
    run('arm-none-eabi-gcc', [
      ...CFLAGS,
      '-nostdlib',
      '-T',
      join(fixtures, 'firmware.ld'),
      'startup.o',
      'main.o',
      'libutil.a',
      libgcc,
      '-Wl,-Map=fw.map',
      '-o',
      'fw.elf',
    ]);
    map = readFileSync(join(work, 'fw.map'), 'utf8');
    symbols = elfSymbols('fw.elf');
  });

  it('attributes every object-defined symbol to an object that defines it', () => {
    expect(detectMapFormat(map)).toBe('gnu');
    expectEverySymbolAttributed(map, symbols);
  });

  it('handles flash at address 0, wrapped names, COMMON, archives and duplicate statics', () => {
    const attribution = parseMapFile(map);
    const at = (name: string, pick = 0): string | null => {
      const found = symbols.filter((s) => s.name === name)[pick];
      if (!found) throw new Error(`symbol ${name} missing from the ELF`);
      return where(attribution.attribute(found.func ? found.address | 1 : found.address));
    };
    expect(symbols.find((s) => s.name === 'vectors')?.address).toBe(0);
    expect(at('vectors')).toBe('|startup.o');
    expect(map).toMatch(/^ \.text\.a_function_with_a_name_long_enough\S+\n\s+0x/m);
    expect(at('a_function_with_a_name_long_enough_to_wrap_its_input_section_line_in_the_map')).toBe(
      '|main.o',
    );
    expect(map).toMatch(/^ COMMON\s+0x/m);
    expect(at('common_counter')).toBe('|main.o');
    expect(at('util_checksum')).toBe('libutil.a|util.o');
    expect(at('__aeabi_uldivmod')).toBe('libgcc.a|_aeabi_uldivmod.o');
    // `counter` is static in main.c (initialised, .data) and util.c (.bss).
    const counters = symbols
      .filter((s) => s.name === 'counter')
      .sort((a, b) => a.address - b.address);
    expect(counters.map((s) => where(attribution.attribute(s.address)))).toEqual([
      '|main.o',
      'libutil.a|util.o',
    ]);
  });

  it('keeps zero-size input sections and drops non-allocated and discarded ones', () => {
    const ranges = parseGnuLdMap(map);
    expect(ranges.some((r) => r.start === r.end)).toBe(true);
    expect(ranges.some((r) => r.start === 0 && r.end > 0)).toBe(true);
    expect(
      ranges.filter((r) => /^\.(debug|comment|ARM\.attributes)/.test(r.outputSection)),
    ).toEqual([]);
    expect(ranges.filter((r) => r.section.startsWith('.ARM.exidx'))).toEqual([]);
    const onlyText = parseGnuLdMap(map, { allocatedSections: new Set(['.text']) });
    expect(onlyText.length).toBeGreaterThan(0);
    expect(onlyText.every((r) => r.outputSection === '.text')).toBe(true);
  });
});

describe('LLD map files, checked against nm on a real link with ld.lld', () => {
  it('attributes every object-defined symbol to an object that defines it', () => {
    run('ld.lld', [
      '-T',
      join(fixtures, 'firmware.ld'),
      'startup.o',
      'main.o',
      'libutil.a',
      libgcc,
      '-Map=lld.map',
      '-o',
      'lld.elf',
    ]);
    const map = readFileSync(join(work, 'lld.map'), 'utf8');
    expect(detectMapFormat(map)).toBe('lld');
    expectEverySymbolAttributed(map, elfSymbols('lld.elf'));
    expect(
      where(
        parseMapFile(map).attribute(
          elfSymbols('lld.elf').find((s) => s.name === 'vectors')!.address,
        ),
      ),
    ).toBe('|startup.o');
  });
});

describe('LLD map files (committed fixture made by generate-lld.sh with a newer LLD)', () => {
  const map = readFileSync(join(fixtures, 'lld.map'), 'utf8');
  const expected = readFileSync(join(fixtures, 'lld-symbols.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t') as [string, string, string, string]);

  it('attributes every symbol to an object that defines it', () => {
    expect(detectMapFormat(map)).toBe('lld');
    const attribution = parseMapFile(map);
    const candidates = new Map<string, Set<string>>();
    for (const [name, address, archive, object] of expected) {
      const key = `${name}@${address}`;
      if (!candidates.has(key)) candidates.set(key, new Set());
      candidates.get(key)!.add(`${archive}|${object}`);
    }
    expect(candidates.size).toBeGreaterThan(15);
    const wrong = [...candidates].filter(([key, allowed]) => {
      const address = parseInt(key.split('@')[1]!, 16);
      return !allowed.has(where(attribution.attribute(address)) ?? '');
    });
    expect(wrong).toEqual([]);
  });

  it('reads rows, archives and output sections of both header layouts', () => {
    const ranges = parseLldMap(map);
    expect(ranges.find((r) => r.section === '.text.util_checksum')).toMatchObject({
      archive: 'libutil.a',
      object: 'util.o',
      outputSection: '.text',
    });
    // LLD before version 7 had no LMA column.
    const old = [
      'Address          Size             Align Out     In      Symbol',
      '0000000000201000 0000000000000015     4 .text',
      '0000000000201000 000000000000000e     4         /tmp/a.o:(.text)',
      '0000000000201000 0000000000000000     0                 _start',
      '000000000020100e 0000000000000007     4         lib/libstd-1a2b.rlib(std-1a2b.std.o):(.text.x)',
    ].join('\n');
    expect(parseLldMap(old).map((r) => [r.start, r.end, r.archive, r.object])).toEqual([
      [0x201000, 0x20100e, '', '/tmp/a.o'],
      [0x20100e, 0x201015, 'lib/libstd-1a2b.rlib', 'std-1a2b.std.o'],
    ]);
  });
});

describe('IAR ILINK map files (optional format)', () => {
  // Written from the format's description: placement rows `name kind address size object [N]`,
  // with N naming a MODULE SUMMARY group.
  const map = [
    '###############################################################################',
    '#   IAR ELF Linker V9.50.1.380/W64 for ARM',
    '###############################################################################',
    '',
    '*******************************************************************************',
    '*** PLACEMENT SUMMARY',
    '***',
    '',
    '"A0":  place at address 0x0 { ro section .intvec };',
    '"P1":  place in [from 0x0 to 0x7\'ffff] { ro };',
    '',
    '  Section            Kind         Address    Size  Object',
    '  -------            ----         -------    ----  ------',
    '"A0":                                       0x40',
    '  .intvec            ro code          0x0    0x40  cstartup_M.o [4]',
    '                                   - 0x40    0x40',
    '',
    '"P1":                                     0x1\'2345',
    '  .text              ro code         0x40   0x1a0  main.o [1]',
    "  .text              ro code      0x1'01e0  0x1'0000  xprintffull_nomb.o [2]",
    '  .text.a_long_section_name_that_wraps',
    "                     ro code     0x2'01e0    0x24  drivers.o [1]",
    "  .rodata            const       0x2'0204   0x4   0x10  tables.o [1]",
    "  .iar.init_table    const       0x2'0214    0x14  - Linker created -",
    '',
    '"P2", part 1 of 2:                          0x200',
    "  .bss               zero     0x2000'0000   0x200  main.o [1]",
    '',
    '*******************************************************************************',
    '*** MODULE SUMMARY',
    '***',
    '',
    '    Module            ro code  ro data  rw data',
    '    ------            -------  -------  -------',
    'command line/config:',
    'C:\\work\\fw\\Debug\\Obj: [1]',
    '    main.o               416               512',
    '',
    'dl7M_tlf.a: [2]',
    '    xprintffull_nomb.o  65 536',
    '',
    'm7M_tl.a: [3]',
    '',
    'rt7M_tl.a: [4]',
    '    cstartup_M.o           64',
    '',
    '*******************************************************************************',
    '*** ENTRY LIST',
    '***',
    '',
    'main                     0x41    0x60  Code  Gb  main.o [1]',
  ].join('\n');

  it('is detected and attributes objects to archives through module groups', () => {
    expect(detectMapFormat(map)).toBe('iar');
    const rows = parseIarMap(map).map((r) => [r.section, r.start, r.end, r.archive, r.object]);
    expect(rows).toEqual([
      ['.intvec', 0, 0x40, 'rt7M_tl.a', 'cstartup_M.o'],
      ['.text', 0x40, 0x1e0, '', 'main.o'],
      ['.text', 0x101e0, 0x201e0, 'dl7M_tlf.a', 'xprintffull_nomb.o'],
      ['.text.a_long_section_name_that_wraps', 0x201e0, 0x20204, '', 'drivers.o'],
      ['.rodata', 0x20204, 0x20214, '', 'tables.o'],
      ['.bss', 0x2000_0000, 0x2000_0200, '', 'main.o'],
    ]);
    // Address 0 is kept: the vector table of a part with flash at 0 is attributed.
    expect(where(parseMapFile(map).attribute(0x10))).toBe('rt7M_tl.a|cstartup_M.o');
    expect(where(parseMapFile(map).attribute(0x41))).toBe('|main.o');
  });
});

describe('attribution lookup', () => {
  const range = (start: number, end: number, object: string): MapRange => ({
    start,
    end,
    section: '.text',
    outputSection: '.text',
    archive: '',
    object,
  });

  it('prefers containing ranges, falls back to empty ranges at the address, retries Thumb', () => {
    const a = new MapAttribution([
      range(0x100, 0x100, 'empty.o'),
      range(0x100, 0x140, 'big.o'),
      range(0x140, 0x140, 'end.o'),
    ]);
    expect(a.attribute(0x100)?.object).toBe('big.o');
    expect(a.attribute(0x13f)?.object).toBe('big.o');
    expect(a.attribute(0x140)?.object).toBe('end.o');
    expect(a.attribute(0x141)?.object).toBe('end.o');
    expect(a.attribute(0x142)).toBeNull();
    expect(a.attribute(0xff)).toBeNull();
  });

  it('finds a range nested inside a larger earlier one', () => {
    const a = new MapAttribution([
      range(0, 0x1000, 'outer.o'),
      range(0x10, 0x20, 'inner.o'),
      range(0x30, 0x40, 'x.o'),
    ]);
    expect(a.attribute(0x15)?.object).toBe('inner.o');
    expect(a.attribute(0x25)?.object).toBe('outer.o');
  });

  it('splits archive members', () => {
    expect(splitInputFile('build/lib/libfoo.a(bar.o)')).toEqual({
      archive: 'build/lib/libfoo.a',
      object: 'bar.o',
    });
    expect(splitInputFile('CMakeFiles/app.dir/main.c.obj')).toEqual({
      archive: '',
      object: 'CMakeFiles/app.dir/main.c.obj',
    });
    expect(splitInputFile('deps/libcore-9f.rlib(core-9f.core.o)')).toEqual({
      archive: 'deps/libcore-9f.rlib',
      object: 'core-9f.core.o',
    });
  });
});
