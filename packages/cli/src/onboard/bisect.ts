/** Used bytes per region of one commit; null when the commit did not build. */
export type Footprint = Record<string, number> | null;

export interface Jump {
  region: string;
  /** Index of the last commit before the jump and of the commit that made it. */
  before: number;
  at: number;
  change: number;
}

/** The region that changed most between two footprints, or undefined when none changed. */
export function largestChange(from: Footprint, to: Footprint): string | undefined {
  if (!from || !to) return undefined;
  let best: string | undefined;
  let size = 0;
  for (const region of new Set([...Object.keys(from), ...Object.keys(to)])) {
    const change = Math.abs((to[region] ?? 0) - (from[region] ?? 0));
    if (change > size) [best, size] = [region, change];
  }
  return best;
}

/**
 * Finds the commit where `region` jumped between the first and the last of `count` commits
 * (oldest first), probing O(log count) of them: each round probes the middle of the interval and
 * keeps the half with the larger change, so a single jump is found exactly and several lead to
 * the largest step on that path. A commit that did not build is passed over for the next one.
 * `region` undefined: the region that changed most between the two ends.
 */
export async function findJump(
  count: number,
  probe: (index: number) => Promise<Footprint>,
  region?: string,
): Promise<Jump | { unchanged: true } | { unbuildable: number }> {
  let lo = 0;
  let hi = count - 1;
  let low = await probe(lo);
  let high = await probe(hi);
  if (!low) return { unbuildable: lo };
  if (!high) return { unbuildable: hi };
  const name = region ?? largestChange(low, high);
  if (name === undefined) return { unchanged: true };
  const used = (f: Record<string, number>) => f[name] ?? 0;
  if (used(low) === used(high)) return { unchanged: true };
  while (hi - lo > 1) {
    let mid = Math.floor((lo + hi) / 2);
    let middle = await probe(mid);
    while (!middle && mid + 1 < hi) middle = await probe(++mid);
    if (!middle) break;
    if (Math.abs(used(middle) - used(low)) >= Math.abs(used(high) - used(middle))) {
      [hi, high] = [mid, middle];
    } else {
      [lo, low] = [mid, middle];
    }
  }
  return { region: name, before: lo, at: hi, change: used(high) - used(low) };
}
