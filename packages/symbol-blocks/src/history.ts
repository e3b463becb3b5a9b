import type { VersionRecord } from './record.js';

/** How many times each block occurs in a report version. */
export function blockCounts(record: VersionRecord | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of record?.entries ?? []) counts.set(e.hash, (counts.get(e.hash) ?? 0) + 1);
  return counts;
}

/**
 * A version's block events against the version it was ingested after (its base): per block,
 * the change in occurrences. A typical commit has a handful; a version without a base lists all
 * its blocks. History reads follow these along the bases instead of reading every version's
 * list of blocks (docs/query.md).
 */
export function blockEvents(
  record: VersionRecord | null,
  base: VersionRecord | null,
): Map<string, number> {
  const events = blockCounts(record);
  for (const [hash, n] of blockCounts(base)) {
    const delta = (events.get(hash) ?? 0) - n;
    if (delta === 0) events.delete(hash);
    else events.set(hash, delta);
  }
  return events;
}

/**
 * Occurrences of the given blocks in each wanted version: the sum of the events along the chain
 * of bases, walked once per version whatever the number of wanted versions. `baseOf` gives a
 * version's base (undefined for a version without one); `eventsOf` its events among the blocks.
 * Versions are named by any key (numbers are cheapest to look up). Blocks a version does not hold
 * are absent from its map; a version without events among the blocks shares its base's map.
 */
export function occurrences<V>(
  wanted: readonly V[],
  baseOf: (version: V) => V | undefined,
  eventsOf: (version: V) => ReadonlyMap<string, number> | undefined,
): Map<V, ReadonlyMap<string, number>> {
  const memo = new Map<V, ReadonlyMap<string, number>>();
  const EMPTY: ReadonlyMap<string, number> = new Map();
  for (const start of wanted) {
    const path: V[] = [];
    const onPath = new Set<V>();
    let at: V | undefined = start;
    while (at !== undefined && !memo.has(at) && !onPath.has(at)) {
      path.push(at);
      onPath.add(at);
      at = baseOf(at);
    }
    // A base chain never loops (a base is always ingested before the version that names it);
    // a loop in corrupt data is cut where it closes.
    let counts = at !== undefined && memo.has(at) ? memo.get(at)! : EMPTY;
    for (let i = path.length - 1; i >= 0; i--) {
      const events = eventsOf(path[i]!);
      if (events && events.size > 0) {
        // Blocks a version no longer holds are dropped, so each copy is as small as what the
        // version holds among the blocks asked about (a few, for one symbol's history).
        const next = new Map(counts);
        for (const [hash, delta] of events) {
          const n = (next.get(hash) ?? 0) + delta;
          if (n === 0) next.delete(hash);
          else next.set(hash, n);
        }
        counts = next;
      }
      memo.set(path[i]!, counts);
    }
  }
  return new Map(wanted.map((v) => [v, memo.get(v)!]));
}
