import { Inject, Injectable } from '@nestjs/common';
import type {
  ChainCommit,
  CommitPageData,
  CommitsRequest,
  RegionUsageWithDelta,
} from '@memtrail/contracts';
import { ChainRepository, type ChainPageRow } from './chain.repository.js';
import { notFound } from './errors.js';
import { regionUsages } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';

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

function chainCommit(row: ChainPageRow): ChainCommit {
  return {
    sha: row.sha!,
    message: row.message,
    author_name: row.author_name,
    author_email: row.author_email,
    committed_at: row.committed_at?.toISOString() ?? null,
    tags: row.tags ?? [],
    parent_sha: row.parent_sha,
    branch: row.branch,
    kind: row.kind!,
    status: row.status!,
    depth: row.depth!,
    changed: row.changed!,
    regions: row.kind === 'build_failed' ? [] : regionDeltas(row.region_totals, row.parent_totals),
  };
}

@Injectable()
export class CommitsService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(ChainRepository) private readonly chain: ChainRepository,
  ) {}

  async page(req: CommitsRequest): Promise<CommitPageData> {
    const target = await this.reports.target(req);
    const rows = await this.chain.page(target, req);
    const summary = rows[0];
    if (!summary || summary.total_commits === 0) {
      throw notFound(`Commit ${req.sha} has no report for target ${target.name}`);
    }
    const commits = rows.filter((r) => r.sha !== null).map(chainCommit);
    return {
      commits,
      pagination: {
        total_in_chain: summary.listed,
        has_more: req.offset + commits.length < summary.listed,
        count: req.count,
        offset: req.offset,
      },
      chain_summary: {
        total_commits: summary.total_commits,
        changed_commits: summary.changed_commits,
        root_sha: summary.root_sha!,
      },
    };
  }
}
