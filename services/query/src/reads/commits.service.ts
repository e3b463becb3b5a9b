import { Inject, Injectable } from '@nestjs/common';
import type {
  ChainCommit,
  CommitPageData,
  CommitsRequest,
  RegionUsageWithDelta,
  ReportKindName,
  ReportStatusName,
} from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { ChainRepository, type WalkedCommit } from './chain.repository.js';
import { notFound } from './errors.js';
import { regionUsages } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';

interface PageRow {
  id: string;
  sha: string;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  committed_at: Date | null;
  tags: string[];
  parent_sha: string | null;
  branch: string | null;
  kind: ReportKindName;
  status: ReportStatusName;
  region_totals: unknown;
}

/** Region totals of a commit with changes against the nearest older build with a footprint. */
export function regionDeltas(totals: unknown, parentTotals: unknown): RegionUsageWithDelta[] {
  const parent = new Map(regionUsages(parentTotals).map((r) => [r.name, r]));
  return regionUsages(totals).map((r) => {
    const p = parent.get(r.name);
    return {
      ...r,
      used_change: p ? r.used_size - p.used_size : 0,
      free_change: p ? r.free_size - p.free_size : 0,
    };
  });
}

/** The commit list of spec §7: walk, flag footprint changes, count, then details of one page. */
@Injectable()
export class CommitsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(ChainRepository) private readonly chain: ChainRepository,
  ) {}

  async page(req: CommitsRequest): Promise<CommitPageData> {
    const target = await this.reports.target(req);
    const walked = this.chain.walk(await this.chain.nodes(target), req.sha);
    if (!walked) throw notFound(`Commit ${req.sha} has no report for target ${target.name}`);
    const listed = req.onlyChanged ? walked.filter((w) => w.changed) : walked;
    const page = listed.slice(req.offset, req.offset + req.count);
    const ids = new Set(
      page.flatMap((w) => [w.node.id, ...(w.footprintParent ? [w.footprintParent.id] : [])]),
    );
    const rows = ids.size
      ? await this.prisma.$queryRaw<PageRow[]>`
          SELECT r.id::text AS id, c.sha, c.message, c.author_name, c.author_email, c.committed_at,
                 c.tags, r.parent_sha, r.branch, r.kind::text AS kind, r.status::text AS status,
                 r.region_totals
          FROM reports r JOIN commits c ON c.id = r.commit_id
          WHERE r.id = ANY(${[...ids]}::uuid[])`
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      commits: page.map((w) => chainCommit(w, byId)),
      pagination: {
        total_in_chain: listed.length,
        has_more: req.offset + page.length < listed.length,
        count: req.count,
        offset: req.offset,
      },
      chain_summary: {
        total_commits: walked.length,
        changed_commits: walked.reduce((n, w) => n + (w.changed ? 1 : 0), 0),
        root_sha: walked.at(-1)!.node.sha,
      },
    };
  }
}

function chainCommit(w: WalkedCommit, byId: Map<string, PageRow>): ChainCommit {
  const row = byId.get(w.node.id)!;
  const parent = w.footprintParent ? byId.get(w.footprintParent.id) : undefined;
  return {
    sha: row.sha,
    message: row.message,
    author_name: row.author_name,
    author_email: row.author_email,
    committed_at: row.committed_at?.toISOString() ?? null,
    tags: row.tags,
    parent_sha: row.parent_sha,
    branch: row.branch,
    kind: row.kind,
    status: row.status,
    depth: w.depth,
    changed: w.changed,
    regions:
      row.kind === 'build_failed' ? [] : regionDeltas(row.region_totals, parent?.region_totals),
  };
}
