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

/**
 * What the split reads of a report's symbols, a column per field, so that it runs the same on
 * parsed symbols (`symbolColumns`) and on those read straight from an upload's bytes
 * (`scanJsonUpload`): both give the same blocks and record byte for byte.
 */
export interface SymbolColumns {
  count: number;
  /** Each symbol's section, as an index of `sectionNames` ('' for none). */
  sectionOf: Uint32Array;
  sectionNames: string[];
  addresses: Float64Array;
  sizes: Float64Array;
  /** nameHash of each symbol's name. */
  nameHashes: Uint32Array;
  name(i: number): string;
  /** Every symbol's source file, '' for none. */
  sourceFiles(): string[];
  /** A block's canonical bytes: symbols `order[start … end)` of one section, from `base`. */
  encodeBlock(
    section: string,
    order: Uint32Array,
    start: number,
    end: number,
    base: number,
  ): Buffer;
}

/** FNV-1a of a name: cheap, and the same everywhere, which is all a boundary needs. */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The columns of parsed symbols. */
export function symbolColumns(symbols: readonly ReportSymbol[]): SymbolColumns {
  const count = symbols.length;
  const sectionIds = new Map<string, number>();
  const sectionOf = new Uint32Array(count);
  const addresses = new Float64Array(count);
  const sizes = new Float64Array(count);
  const nameHashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const s = symbols[i]!;
    const section = s.section ?? '';
    let id = sectionIds.get(section);
    if (id === undefined) sectionIds.set(section, (id = sectionIds.size));
    sectionOf[i] = id;
    addresses[i] = s.address;
    sizes[i] = s.size;
    nameHashes[i] = nameHash(s.name);
  }
  return {
    count,
    sectionOf,
    sectionNames: [...sectionIds.keys()],
    addresses,
    sizes,
    nameHashes,
    name: (i) => symbols[i]!.name,
    sourceFiles: () => symbols.map((s) => s.source_file ?? ''),
    encodeBlock(section, order, start, end, base) {
      const rows: unknown[][] = new Array(end - start);
      for (let k = start; k < end; k++) rows[k - start] = canonicalRow(symbols[order[k]!]!, base);
      return encodeRows(section, rows);
    },
  };
}

/**
 * Splits a report's symbols into blocks: per output section, in address order, runs that never
 * cross a region and never split symbols at one address. Each block's addresses are relative to
 * its first symbol, so a link that shifts the code after a change leaves every later block (and
 * its hash) as it was; the report keeps only (block, base address, region) per block.
 */
export function buildVersion(
  report: Pick<MemoryReport, 'symbols' | 'memory_layout'>,
): BuiltVersion {
  return splitSymbols(symbolColumns(report.symbols ?? []), report.memory_layout);
}

/**
 * buildVersion over columns. This runs for every upload, in the gateway or the CLI (10k symbols
 * in about 11 ms of CPU here): typed arrays and native sorts, one pass per symbol, and name
 * hashes rather than names to find repeats.
 */
export function splitSymbols(
  columns: SymbolColumns,
  layout: MemoryReport['memory_layout'],
): BuiltVersion {
  const { count, addresses, sizes, nameHashes: names } = columns;
  const regionOf = regionFinder(layout);

  // Sections numbered in name order.
  const sectionOf = columns.sectionOf.slice();
  const sectionNames = [...columns.sectionNames].sort();
  const rank = new Uint32Array(sectionNames.length);
  const sortedIds = new Map(sectionNames.map((name, i) => [name, i]));
  columns.sectionNames.forEach((name, id) => (rank[id] = sortedIds.get(name)!));
  for (let i = 0; i < count; i++) sectionOf[i] = rank[sectionOf[i]!]!;
  const order = addressOrder(sectionOf, addresses, sectionNames.length);

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
    let size = 0;
    for (let k = start; k < end; k++) {
      const i = order[k]!;
      size += sizes[i]!;
      entryOf[i] = entries.length;
      ordinalOf[i] = k - start;
    }
    const key = `${section}\u0000${region}`;
    const total = bytes.get(key);
    if (total) total.bytes += size;
    else bytes.set(key, { section, region, bytes: size });
    const canonical = columns.encodeBlock(section, order, start, end, base);
    const hash = blockHash(canonical);
    if (!blocks.has(hash)) blocks.set(hash, { hash, canonical, symbolCount: end - start });
    entries.push({ hash, base, span: addresses[order[end - 1]!]! - base, region });
    start = end;
  };
  for (let k = 0; k < count; k++) {
    const i = order[k]!;
    const r = regionOf(sectionNames[sectionOf[i]!]!, addresses[i]!);
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
      duplicates: duplicateNames(columns, entryOf),
      ties: ties(addresses, entryOf, ordinalOf),
      sourceRoot: buildRoot(columns.sourceFiles()),
      symbolCount: count,
    },
    blocks: [...blocks.values()],
  };
}

/**
 * Indexes in section order, then address, then upload order. Symbols are bucketed by section
 * (a stable counting sort); a bucket already in address order, as a linker's map lists them,
 * stays as it is, and others sort by one number per symbol (address and index together) with
 * the typed array's native sort, much cheaper than a comparator called from it.
 */
function addressOrder(
  sectionOf: Uint32Array,
  addresses: Float64Array,
  sectionCount: number,
): Uint32Array {
  const count = sectionOf.length;
  const starts = new Uint32Array(sectionCount + 1);
  for (let i = 0; i < count; i++) starts[sectionOf[i]! + 1]!++;
  for (let s = 0; s < sectionCount; s++) starts[s + 1]! += starts[s]!;
  const order = new Uint32Array(count);
  const next = starts.slice(0, sectionCount);
  for (let i = 0; i < count; i++) order[next[sectionOf[i]!]!++] = i;
  for (let s = 0; s < sectionCount; s++)
    sortByAddress(order.subarray(starts[s]!, starts[s + 1]!), addresses);
  return order;
}

/** Symbols up to this count and addresses below 2^32 share one exact double (2^52 + 2^20). */
const INDEX_RANGE = 2 ** 20;
const ADDRESS_RANGE = 2 ** 32;

/** Sorts indexes (ascending) by address, keeping upload order at one address. */
function sortByAddress(indexes: Uint32Array, addresses: Float64Array): void {
  let sorted = true;
  let packable = addresses.length <= INDEX_RANGE;
  for (let k = 0; k < indexes.length; k++) {
    const a = addresses[indexes[k]!]!;
    if (k > 0 && a < addresses[indexes[k - 1]!]!) sorted = false;
    if (!(Number.isInteger(a) && a >= 0 && a < ADDRESS_RANGE)) packable = false;
  }
  if (sorted) return;
  if (!packable) {
    indexes.sort((a, b) => addresses[a]! - addresses[b]! || a - b);
    return;
  }
  const keys = new Float64Array(indexes.length);
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k]!;
    keys[k] = addresses[i]! * INDEX_RANGE + i;
  }
  keys.sort();
  for (let k = 0; k < keys.length; k++) indexes[k] = keys[k]! % INDEX_RANGE;
}

/** The values held more than once (a sorted copy, so the common case allocates no map). */
function repeated<T extends Float64Array | Uint32Array>(values: T): Set<number> | undefined {
  const sorted = values.slice().sort();
  let found: Set<number> | undefined;
  for (let k = 1; k < sorted.length; k++)
    if (sorted[k] === sorted[k - 1]) (found ??= new Set()).add(sorted[k]!);
  return found;
}

/** Runs of symbols of several entries at one address, in upload order (VersionRecord.ties). */
function ties(
  addresses: Float64Array,
  entryOf: Uint32Array,
  ordinalOf: Uint32Array,
): [number, number][][] {
  const shared = repeated(addresses);
  if (!shared) return [];
  const first = new Map<number, number>();
  const tied = new Map<number, [number, number][]>();
  for (let i = 0; i < addresses.length; i++) {
    const address = addresses[i]!;
    if (!shared.has(address)) continue;
    const seen = first.get(address);
    if (seen === undefined) first.set(address, i);
    else if (entryOf[seen] !== entryOf[i] && !tied.has(address)) tied.set(address, []);
  }
  if (tied.size === 0) return [];
  for (let i = 0; i < addresses.length; i++)
    tied.get(addresses[i]!)?.push([entryOf[i]!, ordinalOf[i]!]);
  return [...tied.values()];
}

/**
 * Names held more than once, each with the sorted, distinct entries that hold it, in the order
 * of each name's second holder in the upload.
 */
function duplicateNames(columns: SymbolColumns, entryOf: Uint32Array): Map<string, number[]> {
  const names = columns.nameHashes;
  // Only symbols whose name hash repeats can share a name; equal hashes of different names
  // are told apart below.
  const shared = repeated(names);
  if (!shared) return new Map();
  const holders = new Map<string, Set<number>>();
  const seenOnce = new Map<string, number>();
  for (let i = 0; i < columns.count; i++) {
    if (!shared.has(names[i]!)) continue;
    const name = columns.name(i);
    const set = holders.get(name);
    if (set) set.add(i);
    else {
      const other = seenOnce.get(name);
      if (other === undefined) seenOnce.set(name, i);
      else holders.set(name, new Set([other, i]));
    }
  }
  return new Map(
    [...holders].map(([name, indexes]) => [
      name,
      [...new Set([...indexes].map((i) => entryOf[i]!))].sort((a, b) => a - b),
    ]),
  );
}
