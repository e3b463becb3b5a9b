import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { MemoryReport, ReportDiff, ReportSymbol, SectionDelta } from '@memtrail/contracts';
import { stripCloneSuffixes } from '../src/demangle/index.js';
import { diffReports, toChangesSummary, toUploadChanges } from '../src/diff/index.js';

const FLASH = 0x0800_0000;
const RAM = 0x2000_0000;

function sym(name: string, size: number, extra: Partial<ReportSymbol> = {}): ReportSymbol {
  return {
    name,
    address: FLASH + 0x100,
    size,
    type: 'FUNC',
    binding: 'GLOBAL',
    section: '.text',
    source_file: 'main.c',
    ...extra,
  };
}

/**
 * Builds a consistent report: symbols are laid out one after another in their sections,
 * sections get `pad` bytes of padding each, region used_size is the sum of its sections, and
 * `.data` has a load copy in FLASH.
 */
function report(symbols: ReportSymbol[], pad = 4): MemoryReport {
  const sizes = new Map<string, number>();
  const bases: Record<string, number> = {
    '.text': FLASH,
    '.rodata': FLASH + 0x10_0000,
    '.data': RAM,
    '.bss': RAM + 0x1_0000,
  };
  const placed = symbols.map((s) => {
    if (!(s.section in bases)) return s;
    const offset = sizes.get(s.section) ?? 0;
    sizes.set(s.section, offset + s.size);
    const address = bases[s.section]! + offset;
    return { ...s, address: s.type === 'FUNC' ? address + 1 : address };
  });
  const section = (name: string, address = bases[name]!) => {
    const size = (sizes.get(name) ?? 0) + pad;
    return {
      name,
      address,
      size,
      type: name === '.text' ? 'code' : 'data',
      end_address: address + size,
    };
  };
  const flash = [section('.text'), section('.rodata'), section('.data', FLASH + 0x20_0000)];
  const ram = [section('.data'), section('.bss')];
  const region = (address: number, limit: number, sections: typeof flash) => {
    const used = sections.reduce((sum, s) => sum + s.size, 0);
    return {
      address,
      limit_size: limit,
      type: 'UNKNOWN',
      used_size: used,
      free_size: limit - used,
      utilization_percent: (used / limit) * 100,
      sections,
    };
  };
  return {
    file_path: 'fw.elf',
    architecture: 'ARM',
    entry_point: FLASH,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    symbols: placed,
    program_headers: [],
    memory_layout: { FLASH: region(FLASH, 1 << 20, flash), RAM: region(RAM, 1 << 17, ram) },
  };
}

function row(diff: ReportDiff, name: string) {
  return diff.symbols.find((s) => s.name === name);
}

function section(diff: ReportDiff, region: string, name: string): SectionDelta {
  const found = diff.sections.find((s) => s.region === region && s.name === name);
  if (!found) throw new Error(`no section ${region}/${name}`);
  return found;
}

/** The invariants every diff must satisfy (needs includeUnchanged so every symbol has a row). */
function expectReconciled(
  oldReport: MemoryReport,
  newReport: MemoryReport,
  diff: ReportDiff,
): void {
  for (const s of diff.sections) {
    expect(s.delta).toBe(s.symbols_delta + s.padding_delta);
    const fromRows = diff.symbols.reduce((sum, r) => {
      const inSection = (side: typeof r.old) =>
        side !== null && side.section === s.name && side.region === s.region;
      return sum + (inSection(r.new) ? r.new!.size : 0) - (inSection(r.old) ? r.old!.size : 0);
    }, 0);
    expect(fromRows).toBe(s.symbols_delta);
  }
  for (const r of diff.regions) {
    const sectionSum = diff.sections
      .filter((s) => s.region === r.name)
      .reduce((sum, s) => sum + s.delta, 0);
    expect(r.used_change).toBe(sectionSum);
  }
  const allSymbols = diff.symbols.reduce((sum, r) => sum + r.delta, 0);
  const oldTotal = oldReport.symbols.reduce((sum, s) => sum + s.size, 0);
  const newTotal = newReport.symbols.reduce((sum, s) => sum + s.size, 0);
  expect(allSymbols).toBe(newTotal - oldTotal);
}

describe('symbol matching cascade', () => {
  it('level 1: name, source and section; modified when the size changes', () => {
    const a = report([sym('main', 40), sym('util', 10, { source_file: 'util.c' })]);
    const b = report([sym('main', 48), sym('util', 10, { source_file: 'util.c' })]);
    const diff = diffReports(a, b);
    expect(diff.symbols).toHaveLength(1);
    expect(row(diff, 'main')).toMatchObject({ status: 'modified', match_level: 1, delta: 8 });
  });

  it('keeps same-named statics of different files apart', () => {
    const a = report([
      sym('counter', 4, {
        section: '.bss',
        type: 'OBJECT',
        source_file: 'main.c',
        binding: 'LOCAL',
      }),
      sym('counter', 8, {
        section: '.bss',
        type: 'OBJECT',
        source_file: 'util.c',
        binding: 'LOCAL',
      }),
    ]);
    // Reordered in the new build, and only util.c's grew.
    const b = report([
      sym('counter', 16, {
        section: '.bss',
        type: 'OBJECT',
        source_file: 'util.c',
        binding: 'LOCAL',
      }),
      sym('counter', 4, {
        section: '.bss',
        type: 'OBJECT',
        source_file: 'main.c',
        binding: 'LOCAL',
      }),
    ]);
    const diff = diffReports(a, b, { includeUnchanged: true });
    const rows = diff.symbols.filter((s) => s.name === 'counter');
    expect(rows.map((r) => [r.new?.source_file, r.status, r.delta, r.match_level]).sort()).toEqual([
      ['main.c', 'unchanged', 0, 1],
      ['util.c', 'modified', 8, 1],
    ]);
  });

  it('level 2: a symbol whose source file changed is matched by name and reported moved', () => {
    const a = report([sym('crc8', 30, { source_file: 'crc.c' })]);
    const b = report([sym('crc8', 30, { source_file: 'checksum.c' })]);
    expect(row(diffReports(a, b), 'crc8')).toMatchObject({
      status: 'moved',
      match_level: 2,
      delta: 0,
    });
  });

  it('level 3: clone suffixes, raw or as c++filt prints them, are ignored last', () => {
    const a = report([
      sym('scale.constprop.0', 20),
      sym('foo(int) [clone .isra.0]', 12),
      sym('walk.part.0', 30),
      sym('walk', 6),
    ]);
    const b = report([
      sym('scale.constprop.1', 24),
      sym('foo(int)', 12),
      sym('walk.part.1', 30),
      sym('walk', 6),
    ]);
    const diff = diffReports(a, b, { includeUnchanged: true });
    expect(row(diff, 'scale.constprop.1')).toMatchObject({
      status: 'modified',
      match_level: 3,
      old_name: 'scale.constprop.0',
      delta: 4,
    });
    expect(row(diff, 'foo(int)')).toMatchObject({
      status: 'unchanged',
      match_level: 3,
      old_name: 'foo(int) [clone .isra.0]',
    });
    // `walk` itself is matched at level 1 and not consumed by the clone pass.
    expect(row(diff, 'walk')).toMatchObject({ status: 'unchanged', match_level: 1 });
    expect(row(diff, 'walk.part.1')).toMatchObject({ match_level: 3, old_name: 'walk.part.0' });
  });

  it('a real rename is a removal plus an addition', () => {
    const diff = diffReports(report([sym('uart_init', 50)]), report([sym('serial_init', 50)]));
    expect(diff.symbols.map((s) => [s.name, s.status, s.delta]).sort()).toEqual([
      ['serial_init', 'added', 50],
      ['uart_init', 'removed', -50],
    ]);
    expect(diff.totals).toMatchObject({ symbols_added: 1, symbols_removed: 1 });
  });

  it('moved: another section or region', () => {
    const a = report([sym('table', 64, { section: '.data', type: 'OBJECT' })]);
    const b = report([sym('table', 64, { section: '.rodata', type: 'OBJECT' })]);
    const diff = diffReports(a, b);
    expect(row(diff, 'table')).toMatchObject({
      status: 'moved',
      match_level: 2,
      old: { section: '.data', region: 'RAM' },
      new: { section: '.rodata', region: 'FLASH' },
    });
  });
});

describe('moves, renamed regions and 0-byte symbols', () => {
  it('a symbol that moved and changed size is modified, its sides showing the move', () => {
    const a = report([sym('table', 64, { section: '.data', type: 'OBJECT' })]);
    const b = report([sym('table', 80, { section: '.rodata', type: 'OBJECT' })]);
    const diff = diffReports(a, b);
    expect(row(diff, 'table')).toMatchObject({
      status: 'modified',
      delta: 16,
      old: { section: '.data', region: 'RAM' },
      new: { section: '.rodata', region: 'FLASH' },
    });
    expect(diff.totals).toMatchObject({ symbols_modified: 1, symbols_moved: 0 });
  });

  it('a region renamed at the same address is one region: its symbols neither move nor vanish', () => {
    const renamed = (r: MemoryReport, from: string, to: string): MemoryReport => {
      const { [from]: region, ...rest } = r.memory_layout;
      return { ...r, memory_layout: { ...rest, [to]: region! } };
    };
    const a = report([sym('main', 40), sym('buf', 100, { section: '.bss', type: 'OBJECT' })]);
    const b = renamed(
      renamed(
        report([sym('main', 36), sym('buf', 100, { section: '.bss', type: 'OBJECT' })]),
        'FLASH',
        'flash0',
      ),
      'RAM',
      'ram0',
    );
    const diff = diffReports(a, b);
    expect(diff.regions.map((r) => [r.name, r.old_name, r.status, r.used_change])).toEqual([
      ['flash0', 'FLASH', 'modified', -4],
      ['ram0', 'RAM', 'unchanged', 0],
    ]);
    expect(row(diff, 'main')).toMatchObject({
      status: 'modified',
      delta: -4,
      old: { region: 'flash0' },
      new: { region: 'flash0' },
    });
    expect(diff.symbols.map((s) => s.name)).toEqual(['main']);
    expect(diff.sections.filter((s) => s.status !== 'unchanged').map((s) => s.name)).toEqual([
      '.text',
    ]);
  });

  it('regions sharing an address are not paired by guess', () => {
    const a = report([sym('main', 40)]);
    const b = report([sym('main', 40)]);
    const empty = {
      address: 0,
      limit_size: 0,
      type: 'UNKNOWN',
      used_size: 0,
      free_size: 0,
      utilization_percent: 0,
      sections: [],
    };
    a.memory_layout.flash1 = empty;
    a.memory_layout.flash2 = empty;
    b.memory_layout.flash8 = empty;
    b.memory_layout.flash9 = empty;
    const diff = diffReports(a, b);
    expect(diff.regions.filter((r) => r.old_name !== undefined)).toEqual([]);
    expect(diff.regions.filter((r) => r.status === 'added').map((r) => r.name)).toEqual([
      'flash8',
      'flash9',
    ]);
  });

  it('0-byte symbols that come and go are counted, and listed only on request', () => {
    const marker = (name: string) => sym(name, 0, { type: 'NOTYPE', binding: 'LOCAL' });
    const a = report([sym('main', 40), marker('chcond.c.1a2b3c'), marker('chmtx.c.44ee01')]);
    const b = report([sym('main', 44), marker('chcond.c.9f8e7d'), marker('chmtx.c.0c0c0c')]);
    const diff = diffReports(a, b);
    expect(diff.symbols.map((s) => s.name)).toEqual(['main']);
    expect(diff.totals).toMatchObject({
      symbols_added: 0,
      symbols_removed: 0,
      symbols_modified: 1,
      zero_size_changes: 4,
    });
    const all = diffReports(a, b, { includeZeroSize: true });
    expect(
      all.symbols
        .filter((s) => s.delta === 0)
        .map((s) => s.status)
        .sort(),
    ).toEqual(['added', 'added', 'removed', 'removed']);
    expect(all.totals).toMatchObject({
      symbols_added: 2,
      symbols_removed: 2,
      zero_size_changes: 4,
    });
  });
});

describe('sections, padding and regions', () => {
  it('folds padding into one number per section so symbol and padding deltas add up', () => {
    const a = report([sym('main', 40), sym('buf', 100, { section: '.bss', type: 'OBJECT' })], 4);
    const b = report([sym('main', 44), sym('buf', 100, { section: '.bss', type: 'OBJECT' })], 12);
    const diff = diffReports(a, b);
    const text = section(diff, 'FLASH', '.text');
    expect(text).toMatchObject({
      delta: 12,
      symbols_delta: 4,
      padding_delta: 8,
      status: 'modified',
    });
    expect(text.new!.padding).toBe(12);
    expect(section(diff, 'RAM', '.bss')).toMatchObject({
      delta: 8,
      symbols_delta: 0,
      padding_delta: 8,
    });
    expectReconciled(a, b, diffReports(a, b, { includeUnchanged: true }));
  });

  it('tells the .data load copy from its run copy', () => {
    const a = report([sym('config', 8, { section: '.data', type: 'OBJECT' })]);
    const b = report([sym('config', 16, { section: '.data', type: 'OBJECT' })]);
    const diff = diffReports(a, b);
    expect(section(diff, 'RAM', '.data')).toMatchObject({
      load_copy: false,
      delta: 8,
      symbols_delta: 8,
      padding_delta: 0,
    });
    expect(section(diff, 'FLASH', '.data')).toMatchObject({
      load_copy: true,
      delta: 8,
      symbols_delta: 0,
      padding_delta: 8,
    });
    expect(diff.regions.find((r) => r.name === 'FLASH')).toMatchObject({
      used_change: 8,
      free_change: -8,
    });
  });

  it('reconciles totals under random edits', () => {
    let seed = 12345;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const sections = ['.text', '.rodata', '.data', '.bss', '.comment'];
    const files = ['main.c', 'util.c', 'drv/uart.c', ''];
    const randomSymbol = (): ReportSymbol =>
      sym(
        `${['f', 'g', 'h', 'x'][random(4)]}${random(30)}${['', '.constprop.0', '.isra.1', '.part.0'][random(4)]}`,
        random(200),
        {
          section: sections[random(sections.length)]!,
          source_file: files[random(files.length)]!,
          type: random(2) ? 'FUNC' : 'OBJECT',
        },
      );
    for (let round = 0; round < 200; round++) {
      const base = Array.from({ length: 1 + random(40) }, () => randomSymbol());
      const edited = base
        .filter(() => random(10) > 0)
        .map((s) => {
          const edit = random(6);
          if (edit === 0) return { ...s, size: random(300) };
          if (edit === 1) return { ...s, section: sections[random(sections.length)]! };
          if (edit === 2) return { ...s, source_file: files[random(files.length)]! };
          if (edit === 3)
            return {
              ...s,
              name: s.name.replace(/\..*$/, '') + ['', '.constprop.2', '.cold'][random(3)],
            };
          return s;
        });
      for (let k = random(5); k > 0; k--) edited.push(randomSymbol());
      const a = report(base, random(9));
      const b = report(edited, random(9));
      expectReconciled(a, b, diffReports(a, b, { includeUnchanged: true }));
    }
  });
});

describe('upload response changes', () => {
  it('builds the compat-spec shapes from the sample report with edits', () => {
    const sample = JSON.parse(
      readFileSync(
        join(
          import.meta.dirname,
          '..',
          '..',
          '..',
          'tests',
          'fixtures',
          'membrowse-sample-report.json',
        ),
        'utf8',
      ),
    ) as MemoryReport;
    const next = structuredClone(sample);
    const grown = next.symbols.find((s) => s.name === 'util_checksum')!;
    grown.size += 8;
    const text = next.memory_layout.FLASH!.sections.find((s) => s.name === '.text')!;
    text.size += 8;
    text.end_address += 8;
    next.memory_layout.FLASH!.used_size += 8;
    next.memory_layout.FLASH!.free_size -= 8;
    next.symbols = next.symbols.filter((s) => s.name !== 'rx_buffer');
    next.symbols.push({ ...grown, name: 'util_crc', address: grown.address + 64, size: 0 });

    const diff = diffReports(sample, next);
    const changes = toUploadChanges(diff);
    expect(changes.regions.modified).toEqual([
      { name: 'FLASH', used_size: 421, limit_size: 262144, old: { used_size: 413 } },
    ]);
    expect(changes.sections.modified).toEqual([
      { name: '.text', region: 'FLASH', size: 244, old: { size: 236 } },
    ]);
    expect(changes.symbols.modified).toEqual([
      expect.objectContaining({
        name: 'util_checksum',
        size: 64,
        delta: 8,
        old: expect.objectContaining({ size: 56 }),
      }),
    ]);
    expect(changes.symbols.removed).toEqual([
      expect.objectContaining({ name: 'rx_buffer', size: 0, delta: -512 }),
    ]);
    // A 0-byte addition (a label) is counted, not listed.
    expect(changes.symbols.added).toEqual([]);
    expect(diff.totals.zero_size_changes).toBe(1);
    expect(
      toUploadChanges(diffReports(sample, next, { includeZeroSize: true })).symbols.added,
    ).toEqual([expect.objectContaining({ name: 'util_crc', delta: 0 })]);
    expect(changes.symbols.moved).toEqual([]);
    expect(toChangesSummary(diff)).toEqual({
      FLASH: { used_change: 8, free_change: -8 },
      RAM: { used_change: 0, free_change: 0 },
      CCMRAM: { used_change: 0, free_change: 0 },
    });
    // .bss lost rx_buffer but kept its size: its padding grew by the same amount.
    expect(section(diff, 'RAM', '.bss')).toMatchObject({
      delta: 0,
      symbols_delta: -512,
      padding_delta: 512,
    });
  });

  it('reports added and removed regions and sections', () => {
    const a = report([sym('main', 10)]);
    const b = structuredClone(a);
    b.memory_layout.CCM = {
      ...b.memory_layout.RAM!,
      address: 0x1000_0000,
      sections: [],
      used_size: 0,
    };
    delete (b.memory_layout as Record<string, unknown>).RAM;
    const changes = toUploadChanges(diffReports(a, b));
    expect(changes.regions.added?.map((r) => r.name)).toEqual(['CCM']);
    expect(changes.regions.removed?.map((r) => r.name)).toEqual(['RAM']);
    expect(changes.sections.removed?.map((s) => `${s.region}/${s.name}`).sort()).toEqual([
      'RAM/.bss',
      'RAM/.data',
    ]);
  });
});

describe('clone suffixes', () => {
  it('strips every GCC and LLVM clone form, and nothing else', () => {
    const cases: Array<[string, string]> = [
      ['scale.constprop.0', 'scale'],
      ['walk.part.0.constprop.0', 'walk'],
      ['foo.isra.0.cold', 'foo'],
      ['bar.lto_priv.3', 'bar'],
      ['baz.llvm.8812', 'baz'],
      ['scale(int, int) [clone .constprop.0]', 'scale(int, int)'],
      ['foo(int) [clone .isra.0] [clone .cold]', 'foo(int)'],
      ['counter [clone .lto_priv.0]', 'counter'],
      ['.str.1', '.str.1'],
      ['__func__.0', '__func__.0'],
      ['version.major', 'version.major'],
      ['operator[](int)', 'operator[](int)'],
    ];
    expect(cases.map(([name]) => [name, stripCloneSuffixes(name)])).toEqual(cases);
  });
});

describe('reports from older CLIs', () => {
  it('diffs reports whose symbols lack optional fields', () => {
    const a = report([sym('main', 40), sym('buf', 64, { section: '.bss', type: 'OBJECT' })]);
    const b = report([sym('main', 44), sym('buf', 64, { section: '.bss', type: 'OBJECT' })]);
    for (const r of [a, b]) {
      for (const s of r.symbols) delete (s as Partial<ReportSymbol>).source_file;
    }
    const diff = diffReports(a, b, { includeUnchanged: true });
    expect(diff.symbols.map((s) => [s.name, s.status, s.match_level, s.delta])).toEqual([
      ['main', 'modified', 1, 4],
      ['buf', 'unchanged', 1, 0],
    ]);
    expectReconciled(a, b, diff);
  });

  it('treats an empty (identical-upload) report as having nothing', () => {
    const empty = { ...report([]), symbols: [], memory_layout: {} } as MemoryReport;
    const full = report([sym('main', 40)]);
    const diff = diffReports(empty, full);
    expect(diff.symbols.map((s) => [s.name, s.status])).toEqual([['main', 'added']]);
    expect(diff.regions.map((r) => [r.name, r.status])).toEqual([
      ['FLASH', 'added'],
      ['RAM', 'added'],
    ]);
  });
});
