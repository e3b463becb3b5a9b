import { Inject, Injectable } from '@nestjs/common';
import type { ReportKindName } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import type { TargetRecord } from './reports.repository.js';

/** One report of a target as the chain walk needs it. */
export interface ChainNode {
  id: string;
  sha: string;
  parent_sha: string | null;
  kind: ReportKindName;
  committed_at: Date | null;
  /** 64-bit hash of the region totals as jsonb (key order does not matter). */
  totals_key: string;
}

/** A walked chain, newest first, with the footprint comparison of each commit. */
export interface WalkedCommit {
  node: ChainNode;
  depth: number;
  /** Nearest older commit of the chain with a footprint (failed builds have none). */
  footprintParent: ChainNode | null;
  changed: boolean;
}

/**
 * Chains of parents. Parent links are per target and name commits by SHA, so a walk is one
 * lookup per step. A recursive CTE does that step as two index probes in Postgres (measured
 * ~15-50 µs a step, so 75-250 ms for a 5,000-commit chain on this machine); reading the
 * target's (sha, parent, kind, footprint hash) once in one indexed scan and walking a hash map
 * here costs a few milliseconds for the same chain (see docs/query.md).
 */
@Injectable()
export class ChainRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async nodes(target: TargetRecord): Promise<Map<string, ChainNode>> {
    const rows = await this.prisma.$queryRaw<ChainNode[]>`
      SELECT r.id::text AS id, c.sha, r.parent_sha, r.kind::text AS kind, c.committed_at,
             jsonb_hash_extended(r.region_totals, 0)::text AS totals_key
      FROM reports r JOIN commits c ON c.id = r.commit_id
      WHERE r.target_id = ${target.id}::uuid`;
    return new Map(rows.map((n) => [n.sha, n]));
  }

  /**
   * Follows parent links from `sha` (depth 0) until a parent has no report for this target.
   * Parent links come from uploads, so a hand-made upload could link back into the chain: the
   * walk stops at the first commit it has already visited. Null when `sha` has no report.
   */
  walk(nodes: Map<string, ChainNode>, sha: string): WalkedCommit[] | null {
    const start = nodes.get(sha);
    if (!start) return null;
    const chain: ChainNode[] = [];
    const seen = new Set<string>();
    for (let n: ChainNode | undefined = start; n && !seen.has(n.sha);) {
      seen.add(n.sha);
      chain.push(n);
      n = n.parent_sha === null ? undefined : nodes.get(n.parent_sha);
    }
    // Oldest first, carrying the nearest older footprint along.
    const walked: WalkedCommit[] = new Array(chain.length);
    let footprint: ChainNode | null = null;
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
}
