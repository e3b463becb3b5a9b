import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';
import type { Block } from './block.js';
import type { ManifestEntry, VersionRecord } from './record.js';
import { entriesByBase, inUploadOrder, uploadedSymbol, type BlockLookup } from './symbols.js';

/**
 * Two report versions share most blocks at (possibly) different bases. The diff engine pairs
 * symbols by name, so a name whose every occurrence lies in blocks both reports hold — in the
 * same region and the same address order — is unchanged in every pass of its cascade and can be
 * left out; its bytes enter the engine as one stand-in symbol per section and region, so section
 * padding and every total still come out exactly as on the full reports.
 *
 * A name must be read when it occurs in a block only one side holds ("changed"), or when it is
 * held more than once and its blocks moved relative to each other. Names held once per report
 * (nearly all) need no index; names held several times are listed in each record's
 * `duplicates`, so the plan is made from the two records alone, before any block is read.
 */
export interface DiffPlan {
  /** Blocks to read, by hash: every block any needed name lies in. */
  hashes: string[];
  /** Names whose blocks moved relative to each other although all are held by both sides. */
  reordered: string[];
  changedOld: number[];
  changedNew: number[];
}

const key = (e: ManifestEntry) => `${e.hash}\u0000${e.region}`;

/** For each entry of `side`: whether `other` holds the same block in the same region. */
function sharedWith(side: VersionRecord, other: VersionRecord): boolean[] {
  const available = new Map<string, number>();
  for (const e of other.entries) available.set(key(e), (available.get(key(e)) ?? 0) + 1);
  return side.entries.map((e) => {
    const n = available.get(key(e)) ?? 0;
    if (n === 0) return false;
    available.set(key(e), n - 1);
    return true;
  });
}

/** The entries holding a name, by address, as block-and-region keys; null if any overlap. */
function placement(record: VersionRecord, entries: number[]): string[] | null {
  const sorted = entries.map((i) => record.entries[i]!).sort((a, b) => a.base - b.base);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1]!.base + sorted[i - 1]!.span >= sorted[i]!.base) return null;
  }
  return sorted.map(key);
}

export function planDiff(oldRecord: VersionRecord, newRecord: VersionRecord): DiffPlan {
  const sharedOld = sharedWith(oldRecord, newRecord);
  const sharedNew = sharedWith(newRecord, oldRecord);
  const changedOld = sharedOld.flatMap((shared, i) => (shared ? [] : [i]));
  const changedNew = sharedNew.flatMap((shared, i) => (shared ? [] : [i]));
  const hashes = new Set<string>();
  for (const i of changedOld) hashes.add(oldRecord.entries[i]!.hash);
  for (const i of changedNew) hashes.add(newRecord.entries[i]!.hash);

  const readAll = (name: string) => {
    for (const i of oldRecord.duplicates.get(name) ?? []) hashes.add(oldRecord.entries[i]!.hash);
    for (const i of newRecord.duplicates.get(name) ?? []) hashes.add(newRecord.entries[i]!.hash);
  };
  const reordered: string[] = [];
  const names = new Set([...oldRecord.duplicates.keys(), ...newRecord.duplicates.keys()]);
  for (const name of names) {
    const inOld = oldRecord.duplicates.get(name);
    const inNew = newRecord.duplicates.get(name);
    const touchesChange =
      !inOld || !inNew || inOld.some((i) => !sharedOld[i]) || inNew.some((i) => !sharedNew[i]);
    if (touchesChange) {
      // Occurs in a changed block (so it is read anyway), or held several times on one side
      // only, which needs a changed block too: read every block that holds it.
      readAll(name);
      continue;
    }
    const a = placement(oldRecord, inOld);
    const b = placement(newRecord, inNew);
    if (!a || !b || a.length !== b.length || a.some((k, i) => k !== b[i])) {
      reordered.push(name);
      readAll(name);
    }
  }
  return { hashes: [...hashes], reordered, changedOld, changedNew };
}

/** Prefix of the stand-in symbols that carry unchanged bytes; never listed (always unchanged). */
export const UNCHANGED = '\u0000unchanged';

/** Address of `section` in `region` (else anywhere, else 0: the symbols are unplaced anyway). */
function sectionStart(
  layout: MemoryReport['memory_layout'],
  section: string,
  region: string,
): number {
  const inRegion = layout[region]?.sections.find((s) => s.name === section);
  if (inRegion) return inRegion.address;
  for (const r of Object.values(layout)) {
    const found = r.sections.find((s) => s.name === section);
    if (found) return found.address;
  }
  return 0;
}

/**
 * One side's symbols for the engine: every occurrence of a needed name (all lie in read blocks),
 * then per section and region the bytes left out as one stand-in at the start of that section.
 */
function reducedSide(
  record: VersionRecord,
  layout: MemoryReport['memory_layout'],
  read: Set<string>,
  needed: Set<string>,
  blockOf: BlockLookup,
): ReportSymbol[] {
  const included = new Map<string, number>();
  // In the order reportSymbols gives, so that symbols at one address reach the engine in the
  // same order as in the full report.
  const symbols: ReportSymbol[] = inUploadOrder(record, (visit) => {
    for (const { entry, index } of entriesByBase(record)) {
      if (!read.has(entry.hash)) continue;
      const block: Block = blockOf(entry.hash);
      block.symbols.forEach((s, ordinal) => {
        if (!needed.has(s.name)) return;
        visit(index, ordinal, uploadedSymbol(s, entry.base + s.rel, block.section));
        const k = `${block.section}\u0000${entry.region}`;
        included.set(k, (included.get(k) ?? 0) + s.size);
      });
    }
  });
  for (const { section, region, bytes } of record.sectionBytes) {
    const rest = bytes - (included.get(`${section}\u0000${region}`) ?? 0);
    if (rest === 0) continue;
    symbols.push({
      name: `${UNCHANGED} ${section} ${region}`,
      address: sectionStart(layout, section, region),
      size: rest,
      type: 'OBJECT',
      binding: 'LOCAL',
      section,
      source_file: '',
    });
  }
  return symbols;
}

/**
 * Both sides' symbols for the diff engine, from the plan's blocks: the names in changed blocks
 * and the reordered ones, plus stand-ins, so that every total reconciles as on full reports.
 */
export function reducedSymbols(
  plan: DiffPlan,
  oldSide: { record: VersionRecord; layout: MemoryReport['memory_layout'] },
  newSide: { record: VersionRecord; layout: MemoryReport['memory_layout'] },
  blockOf: BlockLookup,
): [ReportSymbol[], ReportSymbol[]] {
  const needed = new Set(plan.reordered);
  for (const [record, changed] of [
    [oldSide.record, plan.changedOld],
    [newSide.record, plan.changedNew],
  ] as const) {
    for (const i of changed)
      for (const s of blockOf(record.entries[i]!.hash).symbols) needed.add(s.name);
  }
  const read = new Set(plan.hashes);
  return [
    reducedSide(oldSide.record, oldSide.layout, read, needed, blockOf),
    reducedSide(newSide.record, newSide.layout, read, needed, blockOf),
  ];
}

/** One side of a diff: a stored version's record and its layout (from the version's header). */
export interface DiffSide {
  record: VersionRecord;
  layout: MemoryReport['memory_layout'];
}

/**
 * The two reports the diff engine needs, reading only the blocks the plan names through `read`
 * (a store, a cache): with the engine on them, the same diff as on the full reports.
 */
export async function reducedReports(
  oldSide: DiffSide,
  newSide: DiffSide,
  read: (hashes: string[]) => Promise<BlockLookup>,
): Promise<[ReportSymbol[], ReportSymbol[]]> {
  const plan = planDiff(oldSide.record, newSide.record);
  return reducedSymbols(plan, oldSide, newSide, await read(plan.hashes));
}
