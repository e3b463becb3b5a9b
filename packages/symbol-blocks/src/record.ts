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

const FORMAT = 1;

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

/** The record's stored form: compact binary, deflated (hashes dominate and do not compress). */
export function encodeRecord(record: VersionRecord): Buffer {
  const regions = indexer();
  for (const e of record.entries) regions.index(e.region);
  for (const s of record.sectionBytes) regions.index(s.region);
  const w = new ByteWriter();
  w.uint(FORMAT);
  w.uint(record.symbolCount);
  w.string(record.sourceRoot);
  w.uint(regions.values.length);
  for (const r of regions.values) w.string(r);
  w.uint(record.entries.length);
  let previous = 0;
  for (const e of record.entries) {
    w.bytes(Buffer.from(e.hash, 'hex'));
    w.int(e.base - previous);
    previous = e.base;
    w.uint(e.span);
    w.uint(regions.index(e.region));
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

export function decodeRecord(stored: Uint8Array): VersionRecord {
  const r = new ByteReader(inflateRawSync(stored));
  const format = r.uint();
  if (format !== FORMAT) throw new Error(`version record of unknown format ${format}`);
  const symbolCount = r.uint();
  const sourceRoot = r.string();
  const regions = Array.from({ length: r.uint() }, () => r.string());
  const region = (i: number) => {
    const name = regions[i];
    if (name === undefined)
      throw new RangeError(`version record names region ${i} of ${regions.length}`);
    return name;
  };
  const entries: ManifestEntry[] = new Array(r.uint());
  let base = 0;
  for (let i = 0; i < entries.length; i++) {
    const hash = r.bytes(HASH_BYTES).toString('hex');
    base += r.int();
    entries[i] = { hash, base, span: r.uint(), region: region(r.uint()) };
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
