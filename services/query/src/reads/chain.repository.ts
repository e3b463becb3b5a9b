import { Inject, Injectable } from '@nestjs/common';
import type { ReportKindName, ReportStatusName } from '@memtrail/contracts';
import { Prisma, PrismaClient } from '@memtrail/db';
import { chainWalk } from './chain-sql.js';
import type { TargetRecord } from './reports.repository.js';

export interface ChainPageRow {
  total_commits: number;
  changed_commits: number;
  listed: number;
  root_sha: string | null;
  depth: number | null;
  changed: boolean | null;
  sha: string | null;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  committed_at: Date | null;
  tags: string[] | null;
  parent_sha: string | null;
  branch: string | null;
  kind: ReportKindName | null;
  status: ReportStatusName | null;
  region_totals: unknown;
  parent_totals: unknown;
}

export interface ChainPageQuery {
  sha: string;
  count: number;
  offset: number;
  onlyChanged: boolean;
}

/**
 * The commit list of spec §7 in one statement: walk the chain, flag commits whose footprint
 * differs from the nearest older build that has one, count, and join details for one page.
 */
@Injectable()
export class ChainRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async page(target: TargetRecord, q: ChainPageQuery): Promise<ChainPageRow[]> {
    // `own` numbers builds with a footprint from the oldest (1) up; `older` counts those strictly
    // older than the row, so the nearest older footprint is the one whose `own` equals `older`.
    return this.prisma.$queryRaw<ChainPageRow[]>`
      ${chainWalk(target.projectId, target.id, q.sha)},
      detailed AS (
        SELECT w.depth, w.id, r.kind, r.region_totals,
          count(*) FILTER (WHERE r.kind <> 'build_failed')
            OVER (ORDER BY w.depth DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS own,
          count(*) FILTER (WHERE r.kind <> 'build_failed')
            OVER (ORDER BY w.depth DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS older
        FROM walk w JOIN reports r ON r.id = w.id
      ),
      flagged AS (
        SELECT d.depth, d.id, p.region_totals AS parent_totals,
          (d.kind = 'build_failed'
           OR (d.kind <> 'identical' AND (p.id IS NULL OR d.region_totals IS DISTINCT FROM p.region_totals))
          ) AS changed
        FROM detailed d
        LEFT JOIN detailed p ON p.kind <> 'build_failed' AND p.own = d.older
      ),
      summary AS (
        SELECT count(*)::int AS total_commits,
               count(*) FILTER (WHERE changed)::int AS changed_commits,
               count(*) FILTER (WHERE changed OR NOT ${q.onlyChanged})::int AS listed,
               max(depth) AS max_depth
        FROM flagged
      ),
      page AS (
        SELECT * FROM flagged WHERE changed OR NOT ${q.onlyChanged}
        ORDER BY depth OFFSET ${q.offset} LIMIT ${q.count}
      )
      SELECT s.total_commits, s.changed_commits, s.listed,
        (SELECT c.sha FROM walk w JOIN reports r ON r.id = w.id JOIN commits c ON c.id = r.commit_id
          WHERE w.depth = s.max_depth) AS root_sha,
        p.depth, p.changed, c.sha, c.message, c.author_name, c.author_email, c.committed_at, c.tags,
        r.parent_sha, r.branch, r.kind::text AS kind, r.status::text AS status, r.region_totals,
        p.parent_totals
      FROM summary s
      LEFT JOIN page p ON true
      LEFT JOIN reports r ON r.id = p.id
      LEFT JOIN commits c ON c.id = r.commit_id
      ORDER BY p.depth`;
  }
}
