import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';
import { buildRoot } from '@memtrail/report';
import { blockHash, canonicalRow, encodeRows } from './block.js';
import type { ManifestEntry, SectionBytes, VersionRecord } from './record.js';
import { regionFinder } from './regions.js';

/**
 * Block boundaries are chosen by content, not position: a block ends before a symbol whose
 * name hashes to 0 mod CUT_MODULUS (once the block has MIN_SYMBOLS), so inserting or removing a
 * symbol changes only the block around it. MAX_SYMBOLS bounds a run with no such name. On
 * average a block holds MIN_SYMBOLS + CUT_MODULUS symbols: smaller blocks make a change rewrite
 * fewer symbol rows, larger ones make each report's list of blocks shorter (docs/query.md).
 */
export const MIN_SYMBOLS = 8;
export const CUT_MODULUS = 16;
export const MAX_SYMBOLS = 96;

/** A block as built from an upload: its id and canonical bytes. */
export interface BuiltBlock {
  hash: string;
  canonical: Buffer;
  symbolCount: number;
}

export interface BuiltVersion {
  record: VersionRecord;
  /** Each distinct block of the report once. */
  blocks: BuiltBlock[];
}

/** FNV-1a of a name: cheap, and the same everywhere, which is all a boundary needs. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Splits a report's symbols into blocks: per output section, in address order, runs that never
 * cross a region and never split symbols at one address. Each block's addresses are relative to
 * its first symbol, so a link that shifts the code after a change leaves every later block (and
 * its hash) as it was; the report keeps only (block, base address, region) per block.
 *
 * This runs on every upload (40k symbols in about 35 ms of CPU here): typed arrays for the sort,
 * one pass per symbol, and name hashes as map keys rather than the names.
 */
export function buildVersion(
  report: Pick<MemoryReport, 'symbols' | 'memory_layout'>,
): BuiltVersion {
  const symbols = report.symbols ?? [];
  const count = symbols.length;
  const regionOf = regionFinder(report.memory_layout);

  // Sections in name order, then addresses, then upload order: one sort of indexes.
  const sectionIds = new Map<string, number>();
  for (const s of symbols) if (!sectionIds.has(s.section ?? '')) sectionIds.set(s.section ?? '', 0);
  const sectionNames = [...sectionIds.keys()].sort();
  sectionNames.forEach((name, i) => sectionIds.set(name, i));
  const sectionOf = new Uint32Array(count);
  const addresses = new Float64Array(count);
  const order = new Uint32Array(count);
  const names = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const s = symbols[i]!;
    names[i] = nameHash(s.name);
    sectionOf[i] = sectionIds.get(s.section ?? '')!;
    addresses[i] = s.address;
    order[i] = i;
  }
  order.sort((a, b) => sectionOf[a]! - sectionOf[b]! || addresses[a]! - addresses[b]! || a - b);

  const entries: ManifestEntry[] = [];
  const blocks = new Map<string, BuiltBlock>();
  const bytes = new Map<string, SectionBytes>();
  const entryOf = new Uint32Array(count);
  const ordinalOf = new Uint32Array(count);
  let start = 0;
  let region = '';
  const close = (end: number) => {
    const first = order[start]!;
    const section = sectionNames[sectionOf[first]!]!;
    const base = addresses[first]!;
    const rows: unknown[][] = new Array(end - start);
    let size = 0;
    for (let k = start; k < end; k++) {
      const i = order[k]!;
      const symbol = symbols[i]!;
      rows[k - start] = canonicalRow(symbol, base);
      size += symbol.size;
      entryOf[i] = entries.length;
      ordinalOf[i] = k - start;
    }
    const key = `${section}\u0000${region}`;
    const total = bytes.get(key);
    if (total) total.bytes += size;
    else bytes.set(key, { section, region, bytes: size });
    const canonical = encodeRows(section, rows);
    const hash = blockHash(canonical);
    if (!blocks.has(hash)) blocks.set(hash, { hash, canonical, symbolCount: end - start });
    entries.push({ hash, base, span: addresses[order[end - 1]!]! - base, region });
    start = end;
  };
  for (let k = 0; k < count; k++) {
    const i = order[k]!;
    const s = symbols[i]!;
    const r = regionOf(s.section ?? '', s.address);
    if (k > start) {
      const previous = order[k - 1]!;
      const length = k - start;
      const cut =
        sectionOf[i] !== sectionOf[previous] ||
        (addresses[i]! > addresses[previous]! &&
          (r !== region ||
            length >= MAX_SYMBOLS ||
            (length >= MIN_SYMBOLS && names[i]! % CUT_MODULUS === 0)));
      if (cut) close(k);
    }
    if (k === start) region = r;
  }
  if (count > start) close(count);

  return {
    record: {
      entries,
      sectionBytes: [...bytes.values()],
      duplicates: duplicateNames(symbols, names, entryOf),
      ties: ties(addresses, entryOf, ordinalOf),
      sourceRoot: buildRoot(symbols.map((s) => s.source_file ?? '')),
      symbolCount: count,
    },
    blocks: [...blocks.values()],
  };
}

/** Runs of symbols of several entries at one address, in upload order (VersionRecord.ties). */
function ties(
  addresses: Float64Array,
  entryOf: Uint32Array,
  ordinalOf: Uint32Array,
): [number, number][][] {
  const first = new Map<number, number>();
  const tied = new Map<number, [number, number][]>();
  for (let i = 0; i < addresses.length; i++) {
    const seen = first.get(addresses[i]!);
    if (seen === undefined) first.set(addresses[i]!, i);
    else if (entryOf[seen] !== entryOf[i] && !tied.has(addresses[i]!)) tied.set(addresses[i]!, []);
  }
  if (tied.size === 0) return [];
  for (let i = 0; i < addresses.length; i++)
    tied.get(addresses[i]!)?.push([entryOf[i]!, ordinalOf[i]!]);
  return [...tied.values()];
}

/** Names held more than once, each with the sorted, distinct entries that hold it. */
function duplicateNames(
  symbols: readonly ReportSymbol[],
  names: Uint32Array,
  entryOf: Uint32Array,
): Map<string, number[]> {
  // Keyed by a hash of the name (a number, cheaper than a string key); equal hashes of
  // different names are told apart below.
  const first = new Map<number, number>();
  const candidates: number[] = [];
  for (let i = 0; i < symbols.length; i++) {
    const h = names[i]!;
    const seen = first.get(h);
    if (seen === undefined) first.set(h, i);
    else candidates.push(seen, i);
  }
  const holders = new Map<string, Set<number>>();
  const seenOnce = new Map<string, number>();
  for (let c = 0; c < candidates.length; c += 2) {
    for (const i of [candidates[c]!, candidates[c + 1]!]) {
      const name = symbols[i]!.name;
      const set = holders.get(name);
      if (set) {
        set.add(i);
        continue;
      }
      const other = seenOnce.get(name);
      if (other === undefined) seenOnce.set(name, i);
      else if (other !== i) holders.set(name, new Set([other, i]));
    }
  }
  return new Map(
    [...holders].map(([name, indexes]) => [
      name,
      [...new Set([...indexes].map((i) => entryOf[i]!))].sort((a, b) => a - b),
    ]),
  );
}
