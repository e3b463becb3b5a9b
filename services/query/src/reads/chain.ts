import type { TimelineEntry } from './timeline.cache.js';

/** A walked chain, newest first, with the footprint comparison of each commit. */
export interface WalkedCommit {
  node: TimelineEntry;
  depth: number;
  /** Nearest older commit of the chain with a footprint (failed builds have none). */
  footprintParent: TimelineEntry | null;
  changed: boolean;
}

/*
 * Chains of parents. Parent links are per target and name commits by SHA, so a walk is one
 * lookup per step. A recursive CTE does that step as two index probes in Postgres (measured
 * 15-50 µs a step here, so 75-250 ms for a 5,000-commit chain); the walk runs instead over the
 * target's timeline (see TimelineCache), a hash map lookup per step (see docs/query.md).
 */

/**
 * Follows parent links from `sha` (depth 0) until a parent has no report for this target.
 * Parent links come from uploads, so a hand-made upload could link back into the chain: the
 * walk stops at the first commit it has already visited. Null when `sha` has no report.
 */
export function walkChain(nodes: Map<string, TimelineEntry>, sha: string): WalkedCommit[] | null {
  const start = nodes.get(sha);
  if (!start) return null;
  const chain: TimelineEntry[] = [];
  const seen = new Set<string>();
  for (let n: TimelineEntry | undefined = start; n && !seen.has(n.sha);) {
    seen.add(n.sha);
    chain.push(n);
    n = n.parent_sha === null ? undefined : nodes.get(n.parent_sha);
  }
  // Oldest first, carrying the nearest older footprint along.
  const walked: WalkedCommit[] = new Array(chain.length);
  let footprint: TimelineEntry | null = null;
  for (let depth = chain.length - 1; depth >= 0; depth--) {
    const node = chain[depth]!;
    const changed =
      node.kind === 'build_failed' ||
      (node.kind !== 'identical' && (!footprint || footprint.totals_key !== node.totals_key));
    walked[depth] = { node, depth, footprintParent: footprint, changed };
    if (node.kind !== 'build_failed') footprint = node;
  }
  return walked;
}
