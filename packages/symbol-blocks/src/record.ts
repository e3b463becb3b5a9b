import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ByteReader, ByteWriter } from './binary.js';
import { HASH_BYTES } from './block.js';

/** One block placed in a report: which block, where, and in which region. */
export interface ManifestEntry {
  /** The block's hash, hex. */
  hash: string;
  /** Address of the block's first symbol. */
  base: number;
  /** Largest relative address among the block's symbols: its rows lie in [base, base + span]. */
  span: number;
  /** Region of every symbol of the block ('' outside every region). */
  region: string;
}

export interface SectionBytes {
  section: string;
  region: string;
  bytes: number;
}

/**
 * What a report version holds besides its header: the blocks it is made of, in section and
 * address order, plus two small indexes the reduced diff needs without reading any block.
 */
export interface VersionRecord {
  entries: ManifestEntry[];
  /** Symbol bytes per section and region. */
  sectionBytes: SectionBytes[];
  /** Every name that occurs more than once in the report, with the entries that hold it. */
  duplicates: Map<string, number[]>;
  /**
   * Symbols of several entries at one address (linker symbols such as `_edata` beside the
   * first variable of a section), each run as [entry, position in its block] in the order the
   * upload listed them: reads give them in that order, as the upload did.
   */
  ties: [entry: number, ordinal: number][][];
  /** The build folder of the report's source paths (buildRoot of @memtrail/report); '' if none. */
  sourceRoot: string;
  symbolCount: number;
}

/** A whole record, or one written as changes to another (its base). */
const WHOLE = 1;
const DELTA = 2;

/** Delta operations: a run of the base's entries (moved by an offset), or an entry of its own. */
const COPY = 0;
const OWN = 1;

function indexer(): { index: (s: string) => number; values: string[] } {
  const values: string[] = [];
  const seen = new Map<string, number>();
  return {
    values,
    index: (s) => {
      let i = seen.get(s);
      if (i === undefined) {
        i = values.length;
        values.push(s);
        seen.set(s, i);
      }
      return i;
    },
  };
}

/** Entries of one block in one region: a delta copies only those. */
const sameBlock = (a: ManifestEntry, b: ManifestEntry) =>
  a.hash === b.hash && a.region === b.region;

/**
 * The record's stored form: compact binary, deflated. With `base` (the record of the version
 * this one follows, usually its parent's) the entries are written as changes to the base's:
 * runs of its entries, each moved by one offset — a link that shifts later code moves whole
 * runs — and the few entries of blocks the base does not hold. A typical commit's record then
 * takes a few hundred bytes instead of about 20 per block of the report.
 */
export function encodeRecord(record: VersionRecord, base?: VersionRecord): Buffer {
  const regions = indexer();
  for (const e of record.entries) regions.index(e.region);
  for (const s of record.sectionBytes) regions.index(s.region);
  const w = new ByteWriter();
  w.uint(base ? DELTA : WHOLE);
  w.uint(record.symbolCount);
  w.string(record.sourceRoot);
  w.uint(regions.values.length);
  for (const r of regions.values) w.string(r);
  const own = (e: ManifestEntry, previous: number) => {
    w.bytes(Buffer.from(e.hash, 'hex'));
    w.int(e.base - previous);
    w.uint(e.span);
    w.uint(regions.index(e.region));
  };
  if (base) writeDelta(w, record.entries, base.entries, own);
  else {
    w.uint(record.entries.length);
    let previous = 0;
    for (const e of record.entries) {
      own(e, previous);
      previous = e.base;
    }
  }
  w.uint(record.sectionBytes.length);
  for (const s of record.sectionBytes) {
    w.string(s.section);
    w.uint(regions.index(s.region));
    w.uint(s.bytes);
  }
  w.uint(record.duplicates.size);
  for (const [name, entries] of record.duplicates) {
    w.string(name);
    w.uint(entries.length);
    let last = 0;
    for (const e of entries) {
      w.uint(e - last);
      last = e;
    }
  }
  w.uint(record.ties.length);
  for (const run of record.ties) {
    w.uint(run.length);
    for (const [entry, ordinal] of run) {
      w.uint(entry);
      w.uint(ordinal);
    }
  }
  return deflateRawSync(w.finish());
}

/** The entries as operations on the base's: greedy runs of equal blocks at one offset. */
function writeDelta(
  w: ByteWriter,
  entries: readonly ManifestEntry[],
  base: readonly ManifestEntry[],
  own: (e: ManifestEntry, previous: number) => void,
): void {
  // By hash alone, the region compared where it is used: no key string per entry and step.
  const where = new Map<string, number[]>();
  base.forEach((e, i) => {
    const list = where.get(e.hash);
    if (list) list.push(i);
    else where.set(e.hash, [i]);
  });
  const ops: (() => void)[] = [];
  let previous = 0;
  for (let i = 0; i < entries.length;) {
    const e = entries[i]!;
    // The candidate whose run goes furthest (for a block held once: the only one). A block
    // held many times (a run of identical ones) is looked for among its first few places.
    let start = -1;
    let length = 0;
    let looked = 0;
    for (const j of where.get(e.hash) ?? []) {
      if (base[j]!.region !== e.region) continue;
      if (looked++ === 16) break;
      const offset = e.base - base[j]!.base;
      let n = 1;
      while (
        i + n < entries.length &&
        j + n < base.length &&
        sameBlock(entries[i + n]!, base[j + n]!) &&
        entries[i + n]!.base - base[j + n]!.base === offset
      )
        n++;
      if (n > length) [start, length] = [j, n];
    }
    if (start < 0) {
      const from = previous;
      ops.push(() => {
        w.uint(OWN);
        own(e, from);
      });
      previous = e.base;
      i++;
      continue;
    }
    const offset = e.base - base[start]!.base;
    const [from, count] = [start, length];
    ops.push(() => {
      w.uint(COPY);
      w.uint(from);
      w.uint(count);
      w.int(offset);
    });
    previous = entries[i + length - 1]!.base;
    i += length;
  }
  w.uint(ops.length);
  for (const op of ops) op();
}

/** Whether a stored record is written as changes to its base (decodeRecord then needs it). */
export function recordNeedsBase(stored: Uint8Array): boolean {
  return new ByteReader(inflateRawSync(stored)).uint() === DELTA;
}

/** `maxBytes` bounds the inflated record: one a client sent could otherwise be a deflate bomb. */
export function decodeRecord(
  stored: Uint8Array,
  base?: VersionRecord,
  maxBytes?: number,
): VersionRecord {
  const r = new ByteReader(
    inflateRawSync(stored, maxBytes === undefined ? undefined : { maxOutputLength: maxBytes }),
  );
  const format = r.uint();
  if (format !== WHOLE && format !== DELTA)
    throw new Error(`version record of unknown format ${format}`);
  if (format === DELTA && !base)
    throw new Error('version record is a delta, and no base was given');
  const symbolCount = r.uint();
  const sourceRoot = r.string();
  const regions = Array.from({ length: r.uint() }, () => r.string());
  const region = (i: number) => {
    const name = regions[i];
    if (name === undefined)
      throw new RangeError(`version record names region ${i} of ${regions.length}`);
    return name;
  };
  const own = (previous: number): ManifestEntry => {
    const hash = r.bytes(HASH_BYTES).toString('hex');
    const at = previous + r.int();
    return { hash, base: at, span: r.uint(), region: region(r.uint()) };
  };
  const entries: ManifestEntry[] = [];
  if (format === WHOLE) {
    for (let n = r.uint(), previous = 0; n > 0; n--) {
      const e = own(previous);
      entries.push(e);
      previous = e.base;
    }
  } else {
    const from = base!.entries;
    for (let n = r.uint(), previous = 0; n > 0; n--) {
      if (r.uint() === OWN) {
        const e = own(previous);
        entries.push(e);
        previous = e.base;
        continue;
      }
      const start = r.uint();
      const count = r.uint();
      const offset = r.int();
      if (start + count > from.length)
        throw new RangeError(`version record copies entries ${start}+${count} of ${from.length}`);
      for (let k = start; k < start + count; k++) {
        const e = from[k]!;
        entries.push({ ...e, base: e.base + offset });
      }
      previous = entries[entries.length - 1]!.base;
    }
  }
  const sectionBytes = Array.from({ length: r.uint() }, () => ({
    section: r.string(),
    region: region(r.uint()),
    bytes: r.uint(),
  }));
  const duplicates = new Map<string, number[]>();
  for (let n = r.uint(); n > 0; n--) {
    const name = r.string();
    const list: number[] = new Array(r.uint());
    let last = 0;
    for (let i = 0; i < list.length; i++) list[i] = last += r.uint();
    duplicates.set(name, list);
  }
  const ties = Array.from({ length: r.uint() }, () =>
    Array.from({ length: r.uint() }, (): [number, number] => [r.uint(), r.uint()]),
  );
  if (!r.done) throw new Error('version record has trailing bytes');
  return { entries, sectionBytes, duplicates, ties, sourceRoot, symbolCount };
}

/**
 * The record with its regions renamed (a region configuration merging regions renamed over
 * history into one name): entries take the new names, and the symbol bytes of sections that
 * now share a region are added up.
 */
export function withRegions(
  record: VersionRecord,
  rename: (region: string) => string,
): VersionRecord {
  const bytes = new Map<string, SectionBytes>();
  for (const s of record.sectionBytes) {
    const region = rename(s.region);
    const key = `${s.section}\u0000${region}`;
    const total = bytes.get(key);
    if (total) total.bytes += s.bytes;
    else bytes.set(key, { ...s, region });
  }
  return {
    ...record,
    entries: record.entries.map((e) => ({ ...e, region: rename(e.region) })),
    sectionBytes: [...bytes.values()],
  };
}
