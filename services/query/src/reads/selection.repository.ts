import { Inject, Injectable } from '@nestjs/common';
import type { ReportKindName, SeriesCommit, SeriesSelection } from '@memtrail/contracts';
import { Prisma, PrismaClient } from '@memtrail/db';
import { ChainRepository } from './chain.repository.js';
import { notFound } from './errors.js';
import type { TargetRecord } from './reports.repository.js';

export interface SelectedReport {
  report_id: string;
  ingested_version: number | null;
  sha: string;
  subject: string | null;
  author_name: string | null;
  committed_at: Date | null;
  branch: string | null;
  kind: ReportKindName;
  region_totals?: unknown;
  section_totals?: unknown;
}

export interface Selected {
  /** Oldest first. */
  reports: SelectedReport[];
  truncated: boolean;
}

/** Which totals JSON to carry along (section totals are large; only the section series wants them). */
export type TotalsColumn = 'none' | 'regions' | 'sections';

const TOTALS: Record<TotalsColumn, Prisma.Sql> = {
  none: Prisma.empty,
  regions: Prisma.sql`, r.region_totals`,
  sections: Prisma.sql`, r.section_totals`,
};

export function seriesCommit(r: SelectedReport): SeriesCommit {
  return {
    sha: r.sha,
    subject: r.subject,
    author_name: r.author_name,
    committed_at: r.committed_at?.toISOString() ?? null,
    branch: r.branch,
    kind: r.kind,
  };
}

/**
 * The reports a series runs over: a branch in commit-time order, or the chain of parents from a
 * commit, optionally within a time window; the newest `limit` of them, returned oldest first.
 */
@Injectable()
export class SelectionRepository {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ChainRepository) private readonly chain: ChainRepository,
  ) {}

  async select(
    target: TargetRecord,
    selection: SeriesSelection,
    totals: TotalsColumn,
  ): Promise<Selected> {
    const from = selection.from ? new Date(selection.from) : null;
    const to = selection.to ? new Date(selection.to) : null;
    const window = Prisma.sql`
      (${from}::timestamptz IS NULL OR c.committed_at >= ${from}::timestamptz)
      AND (${to}::timestamptz IS NULL OR c.committed_at <= ${to}::timestamptz)`;
    const columns = Prisma.sql`
      r.id::text AS report_id, r.ingested_version, c.sha,
      split_part(c.message, E'\n', 1) AS subject, c.author_name,
      c.committed_at, r.branch, r.kind::text AS kind ${TOTALS[totals]}`;
    const limit = selection.limit + 1;
    let rows: SelectedReport[];
    if (selection.sha !== undefined) {
      const walked = this.chain.walk(await this.chain.nodes(target), selection.sha);
      if (!walked)
        throw notFound(`Commit ${selection.sha} has no report for target ${target.name}`);
      const ids = walked
        .map((w) => w.node)
        .filter(
          (n) =>
            (!from || (n.committed_at && n.committed_at >= from)) &&
            (!to || (n.committed_at && n.committed_at <= to)),
        )
        .slice(0, limit)
        .map((n) => n.id);
      const found = ids.length
        ? await this.prisma.$queryRaw<SelectedReport[]>`
            SELECT ${columns} FROM reports r JOIN commits c ON c.id = r.commit_id
            WHERE r.id = ANY(${ids}::uuid[])`
        : [];
      const byId = new Map(found.map((r) => [r.report_id, r]));
      rows = ids.map((id) => byId.get(id)!);
    } else {
      rows = await this.prisma.$queryRaw<SelectedReport[]>`
        SELECT ${columns}
        FROM reports r JOIN commits c ON c.id = r.commit_id
        WHERE r.target_id = ${target.id}::uuid AND r.branch = ${selection.branch!} AND ${window}
        ORDER BY c.committed_at DESC NULLS LAST, r.created_at DESC LIMIT ${limit}`;
      if (rows.length === 0) await this.requireBranch(target, selection.branch!);
    }
    const truncated = rows.length > selection.limit;
    return { reports: rows.slice(0, selection.limit).reverse(), truncated };
  }

  /** An empty window is an empty series; an unknown branch is a 404. */
  private async requireBranch(target: TargetRecord, branch: string): Promise<void> {
    const found = await this.prisma.report.count({ where: { targetId: target.id, branch } });
    if (!found) throw notFound(`Branch ${branch} has no report for target ${target.name}`);
  }
}
