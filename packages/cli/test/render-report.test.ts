import { describe, expect, it } from '@jest/globals';
import type { ReportRegion } from '@memtrail/contracts';
import { regionTree, renderReportText } from '../src/render/report-text.js';
import { sampleReport } from './support.js';

const region = (address: number, limit: number, used = 0): ReportRegion => ({
  address,
  limit_size: limit,
  type: 'UNKNOWN',
  used_size: used,
  free_size: limit - used,
  utilization_percent: limit ? (used / limit) * 100 : 0,
  sections: [],
});

describe('human report', () => {
  const text = renderReportText(sampleReport());
  const lines = text.split('\n');

  it('starts with the metadata line', () => {
    expect(lines[0]).toBe(
      'ELF Metadata: firmware.elf | Arch: ARM | Machine: EM_ARM | Toolchain: gcc-12.2.1 | Entry: 0x08000010 | Type: ET_EXEC',
    );
  });

  it('shows each region with range, size, used, free and a 20-cell bar', () => {
    const flash = lines.find((l) => l.startsWith('FLASH '))!;
    expect(flash).toMatch(
      /^FLASH\s+0x08000000-0x0803FFFF\s+256\.0 KB\s+413 B\s+255\.6 KB\s+\[\.{20}\]\s+0\.2%$/,
    );
    const ram = lines.find((l) => l.startsWith('RAM '))!;
    expect(ram).toMatch(
      /0x20000000-0x2000FFFF\s+64\.0 KB\s+3\.6 KB\s+60\.4 KB\s+\[#\.{19}\]\s+5\.7%$/,
    );
    expect(lines.find((l) => l.startsWith('CCMRAM '))).toMatch(
      /\s+0 B\s+64\.0 KB\s+\[\.{20}\]\s+0\.0%$/,
    );
  });

  it('lists sections under their region, .data in both FLASH and RAM', () => {
    const start = lines.indexOf('Sections');
    const section = lines.slice(start, lines.indexOf('', start));
    expect(section).toContain('FLASH:');
    expect(section.filter((l) => l.trim().startsWith('.data'))).toEqual([
      expect.stringMatching(/\.data\s+0x08000199\s+4 B\s+data$/),
      expect.stringMatching(/\.data\s+0x20000000\s+4 B\s+data$/),
    ]);
  });

  it('lists the largest symbols first with source and the map columns', () => {
    const header = lines.find((l) => l.startsWith('Name '))!;
    expect(header.split(/\s{2,}/)).toEqual([
      'Name',
      'Address',
      'Size',
      'Type',
      'Section',
      'Source',
      'Archive',
      'Object',
    ]);
    const rows = lines.slice(lines.indexOf(header) + 2).filter(Boolean);
    expect(rows).toHaveLength(18);
    expect(rows[0]).toMatch(
      /^rx_buffer\s+0x20000004\s+512\s+OBJECT\s+\.bss\s+stdint\.h\s+main\.o$/,
    );
    expect(rows[1]).toMatch(/^lut\s+0x080000FC\s+128\s+OBJECT\s+\.rodata\s+stdint\.h:7\s+main\.o$/);
    expect(lines).toContain('Top 18 Largest Symbols');
  });

  it('limits the table to 20 symbols unless all are asked for', () => {
    const report = sampleReport();
    const many = Array.from({ length: 30 }, (_, i) => ({
      ...report.symbols[0]!,
      name: `sym${i}`,
      size: i,
      archive: '',
      object_file: '',
    }));
    const top = renderReportText({ ...report, symbols: many });
    expect(top).toContain('Top 20 Largest Symbols');
    expect(top).not.toContain('sym9 ');
    expect(top).not.toContain('Archive');
    expect(renderReportText({ ...report, symbols: many }, { allSymbols: true })).toContain(
      'All Symbols (30, largest first)',
    );
  });

  it('says when source files come from the symbol table', () => {
    const report = sampleReport();
    expect(renderReportText(report)).not.toContain('symbol table');
    const symbols = report.symbols.map((s, i) =>
      i < 2 ? { ...s, source_file_from: 'symbol_table' as const } : s,
    );
    expect(renderReportText({ ...report, symbols })).toContain(
      'Source files of 2 symbol(s) come from the symbol table (STT_FILE symbols, through the map file for globals), not from DWARF: basename only, no line.',
    );
  });

  it('shows default Code/Data regions with an unknown size', () => {
    const report = sampleReport();
    const code = { ...region(0x400000, 0, 1200), type: 'rx', free_size: -1200 };
    const out = renderReportText({ ...report, memory_layout: { Code: code } });
    expect(out.split('\n').find((l) => l.startsWith('Code'))).toMatch(
      /^Code\s+0x00400000-0x004004AF\s+unknown\s+1\.2 KB\s+unknown$/,
    );
  });
});

describe('region nesting', () => {
  it('follows the report: containers hold their children, overlapping regions stay apart', () => {
    const own = (r: ReportRegion, basis: ReportRegion['used_size_basis'] = 'linker') => ({
      ...r,
      used_size_basis: basis,
    });
    const layout: Record<string, ReportRegion> = {
      FLASH: { ...own(region(0x08000000, 0x100000, 5100), 'container'), container: true },
      FLASH_START: { ...own(region(0x08000000, 0x4000, 100)), parent: 'FLASH' },
      FLASH_TEXT: { ...own(region(0x08020000, 0xe0000, 5000)), parent: 'FLASH' },
      ram0: own(region(0x20000000, 0x20000, 300)),
      ram1: own(region(0x20000000, 0x1c000, 0)),
      ram4: { ...own(region(0, 0, 0)), placeholder: true },
    };
    expect(regionTree(layout).map((n) => [n.name, n.depth, n.used])).toEqual([
      ['FLASH', 0, 5100],
      ['FLASH_START', 1, 100],
      ['FLASH_TEXT', 1, 5000],
      ['ram0', 0, 300],
      ['ram1', 0, 0],
    ]);
    expect(regionTree(layout, { all: true }).map((n) => n.name)).toContain('ram4');
    const text = renderReportText({ ...sampleReport(), memory_layout: layout });
    expect(text).not.toMatch(/\nram4 /);
    expect(text).toContain('Not shown: 1 zero-length region(s): ram4');
    expect(text).toMatch(/\nram0\s+0x20000000-0x2001FFFF\s+128\.0 KB\s+300 B/);
  });

  it('without nesting in the report (MemBrowse), nests by address and sums the children', () => {
    const layout = {
      FLASH: region(0x08000000, 0x100000),
      FLASH_START: region(0x08000000, 0x4000, 100),
      FLASH_FS: region(0x08004000, 0x1c000, 0),
      FLASH_TEXT: region(0x08020000, 0xe0000, 5000),
      RAM: region(0x20000000, 0x20000, 300),
    };
    const nodes = regionTree(layout);
    expect(nodes.map((n) => [n.name, n.depth, n.used])).toEqual([
      ['FLASH', 0, 5100],
      ['FLASH_START', 1, 100],
      ['FLASH_FS', 1, 0],
      ['FLASH_TEXT', 1, 5000],
      ['RAM', 0, 300],
    ]);
    const text = renderReportText({ ...sampleReport(), memory_layout: layout });
    expect(text).toMatch(/\n {2}FLASH_TEXT\s+0x08020000-0x080FFFFF/);
    expect(text).toMatch(/\nFLASH\s+0x08000000-0x080FFFFF\s+1\.00 MB\s+5\.0 KB/);
  });

  it('nests equal ranges under the earlier region only', () => {
    const nodes = regionTree({ A: region(0, 100, 1), B: region(0, 100, 2) });
    expect(nodes.map((n) => [n.name, n.depth, n.used])).toEqual([
      ['A', 0, 3],
      ['B', 1, 2],
    ]);
  });
});
