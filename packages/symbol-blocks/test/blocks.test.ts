import { describe, expect, it } from '@jest/globals';
import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';
import { diffReports } from '@memtrail/report';
import {
  blockCounts,
  blockEvents,
  buildVersion,
  decodeBlock,
  decodeRecord,
  encodeBlock,
  encodeRecord,
  occurrences,
  planDiff,
  reducedSymbols,
  reportSymbols,
  type Block,
  type BuiltVersion,
} from '@memtrail/symbol-blocks';
import { seededRandom } from '@memtrail/testing/random';

interface Sym {
  name: string;
  size: number;
  section: string;
  file: string;
}

const SECTIONS = ['.text', '.text', '.text', '.rodata', '.data', '.bss', '.ovl'];

/**
 * Firmware as a linker lays it out: each section's symbols in object order, back to back. Names
 * repeat across files (statics), some symbols are zero-sized or share an address, `.ovl` is an
 * overlay at the address of `.data`, and absolute symbols have no section.
 */
function firmware(rnd: () => number, n: number, sharedNames = 0.15): Sym[] {
  const syms: Sym[] = [];
  for (let i = 0; i < n; i++) {
    const section = SECTIONS[Math.floor(rnd() * SECTIONS.length)]!;
    // A fifth of the objects were built without debug information: no source file.
    const file = rnd() < 0.2 ? '' : `src/m${Math.floor(rnd() * 6)}/f${Math.floor(rnd() * 12)}.c`;
    const shared = rnd() < sharedNames;
    syms.push({
      name: shared
        ? ['init', 'buf', 'state', '__func__.0', 'handler'][Math.floor(rnd() * 5)]!
        : `s${i}`,
      size: rnd() < 0.05 ? 0 : 2 + 2 * Math.floor(rnd() * 40),
      section,
      file,
    });
  }
  syms.push({ name: '_estack', size: 0, section: '', file: '' });
  return syms;
}

function layout(syms: readonly Sym[], regionNames: [string, string]): MemoryReport {
  const [flash, ram] = regionNames;
  const bases: Record<string, number> = {
    '.text': 0x0800_0000,
    '.rodata': 0x0808_0000,
    '.data': 0x2000_0000,
    '.bss': 0x2001_0000,
    '.ovl': 0x2000_0000,
    '': 0x3000_0000,
  };
  const next = { ...bases };
  const symbols: ReportSymbol[] = [];
  for (const s of syms) {
    const address = next[s.section]!;
    symbols.push({
      name: s.name,
      address: s.section === '.text' ? address + 1 : address,
      size: s.size,
      type: s.section === '.text' ? 'FUNC' : 'OBJECT',
      binding: 'LOCAL',
      section: s.section,
      source_file: s.file,
      source_line: 7,
      visibility: 'DEFAULT',
      archive: '',
      object_file: s.file.replace(/\.c$/, '.o'),
    });
    // Zero-sized symbols share the next one's address.
    next[s.section]! += s.section === '' ? 0 : s.size;
  }
  const section = (name: string) => {
    const size = next[name]! - bases[name]! + 4;
    return { name, address: bases[name]!, size, type: 'data', end_address: bases[name]! + size };
  };
  const region = (address: number, limit: number, sections: ReturnType<typeof section>[]) => {
    const used = sections.reduce((t, s) => t + s.size, 0);
    return {
      address,
      limit_size: limit,
      type: 'UNKNOWN',
      used_size: used,
      free_size: limit - used,
      utilization_percent: (100 * used) / limit,
      sections,
    };
  };
  return {
    file_path: 'fw.elf',
    architecture: 'ARM',
    entry_point: 0,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    program_headers: [],
    symbols,
    memory_layout: {
      [flash]: region(0x0800_0000, 1 << 20, [section('.text'), section('.rodata')]),
      [ram]: region(0x2000_0000, 1 << 18, [section('.data'), section('.bss'), section('.ovl')]),
    },
  };
}

/** A commit's edits: grow/shrink, add/remove, rename to a clone, move between files or sections. */
function evolve(
  syms: readonly Sym[],
  rnd: () => number,
  id: { next: number },
  edits: number,
): Sym[] {
  const next = syms.map((s) => ({ ...s }));
  const pick = () => Math.floor(rnd() * (next.length - 1));
  for (let e = 0; e < edits; e++) {
    const roll = rnd();
    const s = next[pick()]!;
    if (roll < 0.35) s.size += 2 * (1 + Math.floor(rnd() * 20));
    else if (roll < 0.5) s.size = Math.max(0, s.size - 2);
    else if (roll < 0.6) next.splice(pick(), 1);
    else if (roll < 0.7) next.splice(pick(), 0, { ...s, name: `n${id.next++}` });
    else if (roll < 0.78)
      s.name = `${s.name.replace(/\.constprop\.\d$/, '')}.constprop.${Math.floor(rnd() * 3)}`;
    else if (roll < 0.85) s.file = `src/moved/${s.file.split('/').pop()}`;
    else if (roll < 0.92) s.section = s.section === '.data' ? '.bss' : '.data';
    else {
      // Two runs of code swap places: blocks keep their content, their order changes.
      const a = pick();
      const b = pick();
      const [lo, hi] = a < b ? [a, b] : [b, a];
      const run = next.splice(lo, Math.min(30, hi - lo));
      next.splice(Math.min(next.length - 1, lo + 40), 0, ...run);
    }
  }
  return next;
}

function lookup(...versions: BuiltVersion[]): (hash: string) => Block {
  const blocks = new Map<string, Block>();
  for (const v of versions) for (const b of v.blocks) blocks.set(b.hash, decodeBlock(b.canonical));
  return (hash) => {
    const block = blocks.get(hash);
    if (!block) throw new Error(`block ${hash} not read`);
    return block;
  };
}

/** The full report rebuilt from blocks, as the stores keep it. */
function rebuilt(report: MemoryReport, version: BuiltVersion): MemoryReport {
  return { ...report, symbols: reportSymbols(version.record, lookup(version)) };
}

/** The reduced diff, reading only the blocks the plan names (others throw if touched). */
function reducedDiff(a: MemoryReport, b: MemoryReport) {
  const va = buildVersion(a);
  const vb = buildVersion(b);
  const plan = planDiff(va.record, vb.record);
  const all = lookup(va, vb);
  const allowed = new Set(plan.hashes);
  const [oldSymbols, newSymbols] = reducedSymbols(
    plan,
    { record: va.record, layout: a.memory_layout },
    { record: vb.record, layout: b.memory_layout },
    (hash) => {
      if (!allowed.has(hash)) throw new Error(`block ${hash} outside the plan was read`);
      return all(hash);
    },
  );
  return {
    diff: diffReports({ ...a, symbols: oldSymbols }, { ...b, symbols: newSymbols }),
    read: plan.hashes.length,
  };
}

describe('symbol blocks', () => {
  /** The upload's symbols in another order, as a symbol table (not a map file) lists them. */
  const shuffled = (report: MemoryReport): MemoryReport => {
    const rnd = seededRandom(7);
    const symbols = [...report.symbols];
    for (let i = symbols.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [symbols[i], symbols[j]] = [symbols[j]!, symbols[i]!];
    }
    return { ...report, symbols };
  };
  /** Every address moved up by `by`, as a 64-bit target's high-half code would sit. */
  const moved = (report: MemoryReport, by: number): MemoryReport => ({
    ...report,
    symbols: report.symbols.map((s) => ({ ...s, address: s.address + by })),
    memory_layout: Object.fromEntries(
      Object.entries(report.memory_layout).map(([name, r]) => [
        name,
        {
          ...r,
          address: r.address + by,
          sections: r.sections.map((sec) => ({ ...sec, address: sec.address + by })),
        },
      ]),
    ),
  });

  it.each([
    ['listed section by section in address order', (r: MemoryReport) => r],
    ['listed in no order', shuffled],
    ['listed in no order above 4 GiB', (r: MemoryReport) => shuffled(moved(r, 2 ** 40))],
  ])('rebuilds every symbol of a report exactly, in address order (%s)', (_, listed) => {
    const report = listed(layout(firmware(seededRandom(1), 3000), ['FLASH', 'RAM']));
    const version = buildVersion(report);
    const symbols = reportSymbols(version.record, lookup(version));
    // In address order, and at one address in the order the upload listed them (linker
    // symbols beside a section's first variable, symbols of an overlay).
    const fields = (s: ReportSymbol) => ({
      name: s.name,
      address: s.address,
      size: s.size,
      type: s.type,
      binding: s.binding,
      section: s.section,
      source_file: s.source_file,
      source_line: s.source_line,
      visibility: s.visibility,
      archive: s.archive,
      object_file: s.object_file,
    });
    const expected = report.symbols
      .map((s, i) => ({ s, i }))
      .sort((x, y) => x.s.address - y.s.address || x.i - y.i)
      .map(({ s }) => fields(s));
    expect(version.record.ties.length).toBeGreaterThan(0);
    expect(symbols.map(fields)).toEqual(expected);
    // Regions as the smallest region holding each address (Thumb bit cleared).
    expect(symbols.find((s) => s.section === '.text')!.region).toBe('FLASH');
    expect(symbols.find((s) => s.section === '.bss')!.region).toBe('RAM');
    expect(symbols.find((s) => s.name === '_estack')!.region).toBe('');
  });

  it('gives each symbol the region its section is placed in, also where regions overlap', () => {
    // ChibiOS-style: ram0 spans all RAM, ram1 lies inside it, and the script places .data in
    // ram0. Address containment alone would say ram1 (the smaller region).
    const report = layout(firmware(seededRandom(5), 300, 0), ['FLASH', 'ram0']);
    report.memory_layout.ram1 = {
      address: 0x2000_0000,
      limit_size: 0x1_0000,
      type: 'UNKNOWN',
      used_size: 0,
      free_size: 0x1_0000,
      utilization_percent: 0,
      sections: [],
    };
    const symbols = reportSymbols(buildVersion(report).record, lookup(buildVersion(report)));
    expect(new Set(symbols.filter((s) => s.section === '.data').map((s) => s.region))).toEqual(
      new Set(['ram0']),
    );
  });

  it('keeps blocks after a change when the link only shifts them', () => {
    const rnd = seededRandom(2);
    const syms = firmware(rnd, 4000);
    const before = buildVersion(layout(syms, ['FLASH', 'RAM']));
    const grown = syms.map((s) => ({ ...s }));
    const early = grown.findIndex((s) => s.section === '.text' && s.size > 0);
    grown[early]!.size += 6;
    const after = buildVersion(layout(grown, ['FLASH', 'RAM']));
    const known = new Set(before.blocks.map((b) => b.hash));
    const fresh = after.blocks.filter((b) => !known.has(b.hash));
    expect(fresh).toHaveLength(1);
    expect(after.record.entries.length).toBe(before.record.entries.length);
    // Nearly every later block moved by 6 bytes and kept its hash.
    const shifted = after.record.entries.filter(
      (e, i) => e.base === before.record.entries[i]!.base + 6,
    );
    expect(shifted.length).toBeGreaterThan(10);
  });

  it('round-trips blocks and version records through their stored forms', () => {
    const version = buildVersion(layout(firmware(seededRandom(3), 2000), ['FLASH', 'RAM']));
    expect(decodeRecord(encodeRecord(version.record))).toEqual(version.record);
    for (const b of version.blocks)
      expect(encodeBlock(decodeBlock(b.canonical))).toEqual(b.canonical);
    expect(version.record.duplicates.get('init')!.length).toBeGreaterThan(1);
  });

  it("writes a record as changes to its parent's in a few bytes, and reads it back whole", () => {
    const rnd = seededRandom(8);
    const id = { next: 1_000_000 };
    let syms = firmware(rnd, 4000, 0.01);
    let parent = buildVersion(layout(syms, ['FLASH', 'RAM'])).record;
    for (let c = 0; c < 10; c++) {
      syms = evolve(syms, rnd, id, 1 + Math.floor(rnd() * 6));
      const record = buildVersion(layout(syms, ['FLASH', 'RAM'])).record;
      const delta = encodeRecord(record, parent);
      expect(decodeRecord(delta, parent)).toEqual(record);
      expect(delta.length).toBeLessThan(encodeRecord(record).length / 5);
      parent = record;
    }
    expect(() => decodeRecord(encodeRecord(parent, parent))).toThrow(/no base was given/);
  });

  it('refuses a record or block of another format rather than misreading it', () => {
    expect(() => decodeBlock(Buffer.from('[2,".text",[]]'))).toThrow(/unknown format 2/);
    const record = encodeRecord(
      buildVersion(layout(firmware(seededRandom(4), 50), ['A', 'B'])).record,
    );
    expect(() => decodeRecord(Buffer.concat([record.subarray(0, record.length - 3)]))).toThrow();
  });

  it('gives the same diff from the planned blocks as the engine on the full reports', () => {
    for (let seed = 10; seed < 70; seed++) {
      const rnd = seededRandom(seed);
      const id = { next: 1_000_000 };
      let syms = firmware(rnd, 400 + Math.floor(rnd() * 800));
      const history = [layout(syms, ['FLASH', 'RAM'])];
      for (let c = 0; c < 4; c++) {
        syms = evolve(syms, rnd, id, 1 + Math.floor(rnd() * 12));
        // A region renamed half-way through the history.
        history.push(layout(syms, c < 2 ? ['FLASH', 'RAM'] : ['flash0', 'ram0']));
      }
      for (const [i, j] of [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [0, 4],
        [4, 0],
      ] as const) {
        const a = history[i]!;
        const b = history[j]!;
        const full = diffReports(rebuilt(a, buildVersion(a)), rebuilt(b, buildVersion(b)));
        const { diff } = reducedDiff(a, b);
        expect({ seed, i, j, diff }).toEqual({ seed, i, j, diff: full });
      }
    }
  });

  it('reads names held twice whose unchanged blocks swapped places (no source files: address order pairs them)', () => {
    // Two objects, each with a static `init` of its own size, linked in the other order. Without
    // debug information both `init` share one origin, so the engine pairs them in address order
    // and reports two changed sizes although no block changed.
    const object = (tag: string, initSize: number): Sym[] =>
      Array.from({ length: 60 }, (_, i) => ({
        name: i === 30 ? 'init' : `${tag}_${i}`,
        size: i === 30 ? initSize : 4,
        section: '.text',
        file: '',
      }));
    const a = layout([...object('a', 10), ...object('b', 30)], ['FLASH', 'RAM']);
    const b = layout([...object('b', 30), ...object('a', 10)], ['FLASH', 'RAM']);
    const full = diffReports(rebuilt(a, buildVersion(a)), rebuilt(b, buildVersion(b)));
    expect(full.symbols.filter((s) => s.name === 'init').map((s) => s.status)).toEqual([
      'modified',
      'modified',
    ]);
    const plan = planDiff(buildVersion(a).record, buildVersion(b).record);
    expect(plan.reordered).toEqual(['init']);
    expect(reducedDiff(a, b).diff).toEqual(full);
  });

  it('reads only the changed blocks, and those of names they share with other blocks', () => {
    for (const sharedNames of [0, 0.01]) {
      const syms = firmware(seededRandom(99), 5000, sharedNames);
      const grown = syms.map((s) => ({ ...s }));
      for (const i of [100, 2000, 4000]) grown[i]!.size += 8;
      const before = layout(syms, ['FLASH', 'RAM']);
      const { read } = reducedDiff(before, layout(grown, ['FLASH', 'RAM']));
      const blocks = buildVersion(before).record.entries.length;
      // Three changed blocks on each side; with statics such as `init` in a few files, also the
      // other blocks holding a name that a changed block holds.
      if (sharedNames === 0) expect(read).toBe(6);
      else expect(read).toBeLessThan(blocks / 5);
    }
  });

  it('counts blocks of every version from events along the chain of bases', () => {
    const rnd = seededRandom(7);
    const id = { next: 1_000_000 };
    let syms = firmware(rnd, 1500);
    const versions: BuiltVersion[] = [];
    for (let c = 0; c < 30; c++) {
      versions.push(buildVersion(layout(syms, ['FLASH', 'RAM'])));
      syms = evolve(syms, rnd, id, 3);
    }
    // Bases as ingestion would pick them: the parent, except two that start over.
    const bases = Int32Array.from(versions, (_, i) => (i === 0 || i === 17 ? -1 : i - 1));
    const events = versions.map((v, i) =>
      blockEvents(v.record, bases[i]! < 0 ? null : versions[bases[i]!]!.record),
    );
    // Newest first, so the first walk runs the whole chain and the rest find it counted.
    const wanted = versions.map((_, i) => i).reverse();
    const counts = occurrences(wanted, bases, (v) => events[v]);
    versions.forEach((v, i) => {
      const expected = blockCounts(v.record);
      const got = counts[i]!;
      expect([...got].filter(([, n]) => n !== 0).sort()).toEqual([...expected].sort());
    });
  });

  it('cuts a loop of bases, found only in corrupt data, where it closes', () => {
    const bases = Int32Array.from([1, 0, 1]);
    const events = ['a', 'b', 'c'].map((hash) => new Map([[hash, 1]]));
    const counts = occurrences([2, 0], bases, (v) => events[v]);
    expect(counts[0]).toEqual(new Map([['a', 1]]));
    expect(counts[1]).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
      ]),
    );
    expect(counts[2]).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
        ['c', 1],
      ]),
    );
  });
});
