import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MemoryReport } from '@memtrail/contracts';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { generateReport } from '../src/report/index.js';
import { type Firmware, binutils, buildFirmware } from './elf-firmware-build.js';
import { parseSectionTable, parseSegments, parseSymbols } from './elf-readelf.js';

/** Which object (and archive) defines each global symbol, from `nm -A` over the link inputs. */
function definingObjects(
  fw: Firmware & { dir: string },
): Map<string, { archive: string; object: string }> {
  const inputs = readdirSync(fw.dir)
    .filter((f) => f.endsWith('.o') || f.endsWith('.a'))
    .filter((f) => f !== 'util.o');
  const out = new Map<string, { archive: string; object: string }>();
  for (const line of binutils(fw, 'nm', [
    '-A',
    '--defined-only',
    ...inputs.map((f) => join(fw.dir, f)),
  ]).split('\n')) {
    const m = /^(.*?\.[ao]):(?:(.*?\.o):)?[0-9a-f]+ ([TDBR]) (.+)$/.exec(line);
    if (!m) continue;
    out.set(
      m[4]!,
      m[2] ? { archive: basename(m[1]!), object: m[2] } : { archive: '', object: basename(m[1]!) },
    );
  }
  return out;
}

describe('generateReport', () => {
  let fw: Firmware & { dir: string; cleanup: () => void };
  let cpp: Firmware & { cleanup: () => void };
  beforeAll(() => {
    fw = buildFirmware('arm-c-dwarf5');
    cpp = buildFirmware('arm-cpp');
  });
  afterAll(() => {
    fw.cleanup();
    cpp.cleanup();
  });

  it('reports metadata, program headers and the compat-filtered symbols of the ELF', () => {
    const report: MemoryReport = generateReport({
      elf: fw.elfPath,
      filePath: 'build/firmware.elf',
      linkerScripts: [fw.linkerScript],
      mapFile: fw.mapPath,
    });
    expect(report.file_path).toBe('build/firmware.elf');
    expect([report.architecture, report.machine, report.file_type]).toEqual([
      'ARM',
      'EM_ARM',
      'ET_EXEC',
    ]);
    expect(report.toolchain).toMatch(/^gcc-\d+\.\d+\.\d+$/);
    const header = binutils(fw, 'readelf', ['-h', fw.elfPath]);
    expect(report.entry_point).toBe(
      parseInt(/Entry point address:\s+0x([0-9a-f]+)/.exec(header)![1]!, 16),
    );

    const segments = parseSegments(binutils(fw, 'readelf', ['-l', '-W', fw.elfPath]));
    expect(
      report.program_headers.map((p) => [
        p.offset,
        p.virt_addr,
        p.phys_addr,
        p.file_size,
        p.mem_size,
        p.flags,
        p.align,
      ]),
    ).toEqual(
      segments.map((s) => [
        s.offset,
        s.virtAddr,
        s.physAddr,
        s.fileSize,
        s.memSize,
        s.flags || '---',
        s.align,
      ]),
    );

    const expected = parseSymbols(
      binutils(fw, 'readelf', ['-s', '-W', fw.elfPath]),
      '.symtab',
    ).filter(
      (s) =>
        s.name !== '' &&
        !s.name.startsWith('$') &&
        !(s.bind === 'LOCAL' && s.size === 0 && s.type !== 'FUNC' && s.type !== 'OBJECT'),
    );
    expect(report.symbols.map((s) => [s.name, s.address, s.size, s.type, s.binding])).toEqual(
      expected.map((s) => [s.name, s.value, s.size, s.type, s.bind]),
    );

    // Thumb functions keep bit 0; linker-defined symbols get no guessed source; code and data do.
    const main = report.symbols.find((s) => s.name === 'main')!;
    expect(main.address % 2).toBe(1);
    expect(main.source_file).toBe('src/main.c');
    for (const s of report.symbols.filter((s) => s.type === 'NOTYPE'))
      expect([s.name, s.source_file, s.source_line]).toEqual([s.name, '', 0]);
    expect(report.symbols.find((s) => s.name === '_sidata')).toBeDefined();
    const withSource = report.symbols.filter(
      (s) => (s.type === 'FUNC' || s.type === 'OBJECT') && s.source_file !== '',
    );
    expect(withSource.length).toBe(
      report.symbols.filter((s) => s.type === 'FUNC' || s.type === 'OBJECT').length,
    );

    // Regions from the linker script; .data at its RAM address and again at its FLASH load address.
    const sections = parseSectionTable(binutils(fw, 'readelf', ['-S', '-W', fw.elfPath]));
    const data = sections.find((s) => s.name === '.data')!;
    const dataLoad = segments.find(
      (s) => s.type === 'LOAD' && s.virtAddr === data.address,
    )!.physAddr;
    expect(Object.keys(report.memory_layout)).toEqual(['FLASH', 'RAM']);
    expect(report.memory_layout.RAM!.sections.map((s) => [s.name, s.address, s.size])).toEqual(
      sections
        .filter((s) => s.flags.includes('W') && s.flags.includes('A'))
        .map((s) => [s.name, s.address, s.size]),
    );
    expect(report.memory_layout.FLASH!.sections.find((s) => s.name === '.data')).toMatchObject({
      address: dataLoad,
      size: data.size,
    });

    // Map-file attribution agrees with the objects that define each global symbol.
    const defining = definingObjects(fw);
    const globals = report.symbols.filter(
      (s) => s.binding === 'GLOBAL' && (s.type === 'FUNC' || s.type === 'OBJECT'),
    );
    expect(globals.length).toBeGreaterThanOrEqual(10);
    for (const s of globals) {
      expect({
        name: s.name,
        archive: basename(s.archive!),
        object: basename(s.object_file!),
      }).toEqual({ name: s.name, ...defining.get(s.name)! });
    }
    expect(report.symbols.find((s) => s.name === 'util_checksum')).toMatchObject({
      object_file: 'util.o',
    });
    for (const s of report.symbols.filter((s) => s.type === 'NOTYPE' && s.size === 0))
      expect([s.name, s.object_file]).toEqual([s.name, '']);
  });

  it('removes skipped sections and their symbols, and warns about unknown names', () => {
    const warnings: string[] = [];
    const report = generateReport({
      elf: fw.elfPath,
      linkerScripts: [fw.linkerScript],
      skipSections: ['.bss', '.heap'],
      onWarning: (m) => warnings.push(m),
    });
    expect(report.symbols.some((s) => s.section === '.bss')).toBe(false);
    expect(report.symbols.some((s) => s.name === 'rx_buffer')).toBe(false);
    expect(report.symbols.some((s) => s.name === 'tick_count')).toBe(true);
    expect(report.memory_layout.RAM!.sections.map((s) => s.name)).toEqual(['.data']);
    expect(warnings).toEqual([expect.stringContaining('.heap')]);
  });

  it('demangles C++ names as c++filt does and keeps template sources in the header', () => {
    const report = generateReport({ elf: cpp.elfPath, linkerScripts: [cpp.linkerScript] });
    const mangled = parseSymbols(binutils(cpp, 'readelf', ['-s', '-W', cpp.elfPath]), '.symtab')
      .map((s) => s.name)
      .filter((n) => n.startsWith('_Z'));
    expect(mangled.length).toBeGreaterThanOrEqual(3);
    const demangled = binutils(cpp, 'c++filt', mangled).trim().split('\n');
    const names = report.symbols.map((s) => s.name);
    for (const name of demangled) expect(names).toContain(name);
    const template = report.symbols.find((s) => s.name.includes(' filters::sum<'));
    expect(template?.source_file).toBe('cpp/filters.hpp');
    expect(report.symbols.find((s) => s.name === 'app::Sensor::instances')?.source_file).toBe(
      'cpp/app.cpp',
    );
  });
});
