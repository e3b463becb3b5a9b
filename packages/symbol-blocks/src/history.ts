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
 * of bases, walked once per version whatever the number of wanted versions. Versions are
 * numbered from 0; `bases[v]` is the number of v's base, or -1 for a version without one;
 * `eventsOf` gives a version's events among the blocks. The answer is indexed by version number
 * and holds every wanted version and every version on their chains. Blocks a version does not
 * hold are absent from its map; a version without events among the blocks shares its base's
 * map. Numbers and arrays rather than keyed maps: a history walks 5,000 versions per read.
 */
export function occurrences(
  wanted: readonly number[],
  bases: Int32Array,
  eventsOf: (version: number) => ReadonlyMap<string, number> | undefined,
): readonly (ReadonlyMap<string, number> | undefined)[] {
  const memo: (ReadonlyMap<string, number> | undefined)[] = new Array(bases.length);
  // The walk that last passed each version: a chain that meets its own walk again loops.
  const walkedBy = new Int32Array(bases.length).fill(-1);
  const EMPTY: ReadonlyMap<string, number> = new Map();
  const path: number[] = [];
  for (let w = 0; w < wanted.length; w++) {
    path.length = 0;
    let at = wanted[w]!;
    while (at >= 0 && memo[at] === undefined && walkedBy[at] !== w) {
      path.push(at);
      walkedBy[at] = w;
      at = bases[at]!;
    }
    // A base chain never loops (a base is always ingested before the version that names it);
    // a loop in corrupt data is cut where it closes.
    let counts = (at >= 0 ? memo[at] : undefined) ?? EMPTY;
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
      memo[path[i]!] = counts;
    }
  }
  return memo;
}
