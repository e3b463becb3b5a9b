import type { VersionRecord } from './record.js';

/** Beyond this a base or span cannot be a ClickHouse UInt64 the reads add up safely. */
const MAX_ADDRESS = Number.MAX_SAFE_INTEGER;

/**
 * Why a record a client sent cannot be stored with the blocks it names, or null when it can:
 * every block it places must be known (`symbolsOf` answers its symbol count), its symbol count
 * must be theirs, and its indexes (duplicates, ties) must point into its entries and blocks.
 * Reads rely on these; what the record says beyond them (which names repeat, the order of
 * symbols at one address, bytes per section) concerns only the sender's own report.
 */
export function recordProblem(
  record: VersionRecord,
  symbolsOf: (hash: string) => number | undefined,
): string | null {
  let symbols = 0;
  for (const [i, e] of record.entries.entries()) {
    const count = symbolsOf(e.hash);
    if (count === undefined)
      return `entry ${i} places block ${e.hash}, which was neither sent nor stored before`;
    if (e.base < 0 || e.base > MAX_ADDRESS || e.span > MAX_ADDRESS)
      return `entry ${i} has an address out of range`;
    symbols += count;
  }
  if (symbols !== record.symbolCount)
    return `the record counts ${record.symbolCount} symbols, its blocks hold ${symbols}`;
  const entries = record.entries.length;
  for (const [name, holders] of record.duplicates) {
    let last = -1;
    for (const i of holders) {
      if (i <= last || i >= entries)
        return `duplicate name ${JSON.stringify(name.slice(0, 80))} lists entries out of order or range`;
      last = i;
    }
  }
  for (const run of record.ties) {
    for (const [entry, ordinal] of run) {
      const e = record.entries[entry];
      if (!e || ordinal >= symbolsOf(e.hash)!)
        return `a run of symbols at one address names entry ${entry}, symbol ${ordinal}, which does not exist`;
    }
  }
  return null;
}
