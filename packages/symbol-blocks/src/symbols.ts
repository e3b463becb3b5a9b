import type { ReportSymbol, ReportSymbolRow } from '@memtrail/contracts';
import type { Block } from './block.js';
import type { ManifestEntry, VersionRecord } from './record.js';

/** A report's symbol with everything stored for it: the read row plus its visibility. */
export type StoredSymbol = ReportSymbolRow & { visibility: string };

/** Finds a block by hash; throws when it is not at hand (a caller's bug or lost data). */
export type BlockLookup = (hash: string) => Block;

/**
 * Every symbol of a report version, with absolute addresses and regions, in address order and,
 * at one address, in the order the upload listed them.
 */
export function reportSymbols(record: VersionRecord, blockOf: BlockLookup): StoredSymbol[] {
  return inUploadOrder(record, (visit) => {
    for (const { entry, index } of entriesByBase(record)) {
      const block = blockOf(entry.hash);
      block.symbols.forEach((s, ordinal) =>
        visit(index, ordinal, {
          name: s.name,
          full_name: s.full_name,
          address: entry.base + s.rel,
          size: s.size,
          type: s.type,
          binding: s.binding,
          section: block.section,
          region: entry.region,
          source_file: s.source_file,
          source_line: s.source_line,
          archive: s.archive,
          object_file: s.object_file,
          visibility: s.visibility,
        }),
      );
    }
  });
}

/**
 * Puts symbols produced entry by entry (in base order) in address order, and symbols of
 * several entries at one address in the record's `ties` order: what the upload listed.
 */
export function inUploadOrder<T extends { address: number }>(
  record: VersionRecord,
  produce: (visit: (entry: number, ordinal: number, symbol: T) => void) => void,
): T[] {
  const rank = new Map<string, number>();
  for (const run of record.ties)
    run.forEach(([entry, ordinal], i) => rank.set(`${entry}/${ordinal}`, i));
  const rows: { symbol: T; rank: number }[] = [];
  let sorted = true;
  produce((entry, ordinal, symbol) => {
    const last = rows[rows.length - 1];
    const r = rank.size > 0 ? (rank.get(`${entry}/${ordinal}`) ?? 0) : 0;
    if (
      last &&
      (last.symbol.address > symbol.address ||
        (last.symbol.address === symbol.address && last.rank > r))
    )
      sorted = false;
    rows.push({ symbol, rank: r });
  });
  // Blocks of different sections may interleave (overlays, absolute symbols): a stable sort.
  if (!sorted) rows.sort((a, b) => a.symbol.address - b.symbol.address || a.rank - b.rank);
  return rows.map((r) => r.symbol);
}

/** A record's entries by base address (entries of one base in record order), with their index. */
export function entriesByBase(record: VersionRecord): { entry: ManifestEntry; index: number }[] {
  return record.entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.base - b.entry.base || a.index - b.index);
}

/** A stored or block symbol as an upload lists it, at its address (payloads, the diff engine). */
export function uploadedSymbol(
  s: Omit<StoredSymbol, 'address' | 'section' | 'region'>,
  address: number,
  section: string,
): ReportSymbol & { full_name?: string } {
  // Built field by field: the diff reads thousands per call, and a spread copy cost 3-4 µs each.
  const symbol: ReportSymbol & { full_name?: string } = {
    name: s.name,
    address,
    size: s.size,
    type: s.type,
    binding: s.binding,
    section,
    source_file: s.source_file,
    source_line: s.source_line,
    visibility: s.visibility,
    archive: s.archive,
    object_file: s.object_file,
  };
  if (s.full_name) symbol.full_name = s.full_name;
  return symbol;
}
