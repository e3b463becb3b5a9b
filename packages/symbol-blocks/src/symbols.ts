import type { ReportSymbol, ReportSymbolRow } from '@memtrail/contracts';
import type { Block } from './block.js';
import type { ManifestEntry, VersionRecord } from './record.js';

/** A report's symbol with everything stored for it: the read row plus its visibility. */
export type StoredSymbol = ReportSymbolRow & { visibility: string };

/** Finds a block by hash; throws when it is not at hand (a caller's bug or lost data). */
export type BlockLookup = (hash: string) => Block;

/**
 * Every symbol of a report version, with absolute addresses and regions, in address order
 * (ties in entry, then block order: symbols at one address never span two blocks of a section).
 */
export function reportSymbols(record: VersionRecord, blockOf: BlockLookup): StoredSymbol[] {
  const rows: StoredSymbol[] = [];
  let sorted = true;
  for (const entry of entriesByBase(record)) {
    const block = blockOf(entry.hash);
    for (const s of block.symbols) {
      const address = entry.base + s.rel;
      if (rows.length > 0 && rows[rows.length - 1]!.address > address) sorted = false;
      rows.push({
        name: s.name,
        full_name: s.full_name,
        address,
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
      });
    }
  }
  // Blocks of different sections may interleave (overlays, absolute symbols): a stable sort.
  if (!sorted) rows.sort((a, b) => a.address - b.address);
  return rows;
}

/** A record's entries by base address (entries of one base in record order). */
export function entriesByBase(record: VersionRecord): ManifestEntry[] {
  return record.entries
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => a.entry.base - b.entry.base || a.i - b.i)
    .map(({ entry }) => entry);
}

/** A stored symbol as an upload lists it (for rebuilding payloads and the diff engine). */
export function uploadedSymbol(s: StoredSymbol): ReportSymbol & { full_name?: string } {
  const symbol: ReportSymbol & { full_name?: string } = {
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
  };
  if (s.full_name) symbol.full_name = s.full_name;
  return symbol;
}
