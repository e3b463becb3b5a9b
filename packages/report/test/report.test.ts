import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MemoryReport } from '@memtrail/contracts';
import { type LayoutRequest, generateReport } from '../src/report/index.js';
import { type Firmware, binutils, buildFirmware } from './elf-firmware-build.js';
import { parseSegments, parseSymbols } from './elf-readelf.js';

/** Region mapping is the layout module's job; here it only records what the report hands over. */
function recordingLayout(into: LayoutRequest[]) {
  return (request: LayoutRequest) => {
    into.push(request);
    return {};
  };
}

describe('generateReport', () => {
  let fw: Firmware & { cleanup: () => void };
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
    const requests: LayoutRequest[] = [];
    const report: MemoryReport = generateReport({
      elf: fw.elfPath,
      filePath: 'build/firmware.elf',
      buildLayout: recordingLayout(requests),
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

    expect(requests).toHaveLength(1);
    expect(requests[0]!.sections.map((s) => s.name)).toEqual([
      '.isr_vector',
      '.text',
      '.rodata',
      '.data',
      '.bss',
    ]);
  });

  it('removes skipped sections and their symbols, and warns about unknown names', () => {
    const requests: LayoutRequest[] = [];
    const warnings: string[] = [];
    const report = generateReport({
      elf: fw.elfPath,
      skipSections: ['.bss', '.heap'],
      buildLayout: recordingLayout(requests),
      onWarning: (m) => warnings.push(m),
    });
    expect(report.symbols.some((s) => s.section === '.bss')).toBe(false);
    expect(report.symbols.some((s) => s.name === 'rx_buffer')).toBe(false);
    expect(report.symbols.some((s) => s.name === 'tick_count')).toBe(true);
    expect(requests[0]!.sections.map((s) => s.name)).not.toContain('.bss');
    expect(warnings).toEqual([expect.stringContaining('.heap')]);
  });

  it('demangles C++ names as c++filt does and keeps template sources in the header', () => {
    const report = generateReport({ elf: cpp.elfPath, buildLayout: () => ({}) });
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
