import { Inject, Injectable } from '@nestjs/common';
import type {
  ChainCommit,
  CommitPageData,
  CommitsRequest,
  RegionPlan,
  RegionUsageWithDelta,
} from '@memtrail/contracts';
import { walkChain, type WalkedCommit } from './chain.js';
import { notFound } from './errors.js';
import { storedRegions } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { TimelineCache } from './timeline.cache.js';

/**
 * Region totals of a commit, as the region configuration shows them, with changes against the
 * nearest older build with a footprint (a region renamed and merged counts as the same one).
 */
export function regionDeltas(
  plan: RegionPlan,
  totals: unknown,
  parentTotals: unknown,
): RegionUsageWithDelta[] {
  const parent = new Map(plan.fold(storedRegions(parentTotals)).map((r) => [r.name, r]));
  return plan.fold(storedRegions(totals)).map(({ address: _address, ...r }) => {
    const p = parent.get(r.name);
    return {
      ...r,
      used_change: p ? r.used_size - p.used_size : 0,
      free_change: p ? r.free_size - p.free_size : 0,
    };
  });
}

function chainCommit(plan: RegionPlan, w: WalkedCommit): ChainCommit {
  const e = w.node;
  return {
    sha: e.sha,
    message: e.message,
    author_name: e.author_name,
    author_email: e.author_email,
    committed_at: e.committed_at?.toISOString() ?? null,
    tags: e.tags,
    parent_sha: e.parent_sha,
    branch: e.branch,
    kind: e.kind,
    status: e.status,
    depth: w.depth,
    changed: w.changed,
    regions:
      e.kind === 'build_failed'
        ? []
        : regionDeltas(plan, e.region_totals, w.footprintParent?.region_totals),
  };
}

/** The commit list of spec §7: walk, flag footprint changes, count, then one page. */
@Injectable()
export class CommitsService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(TimelineCache) private readonly timelines: TimelineCache,
  ) {}

  async page(req: CommitsRequest): Promise<CommitPageData> {
    const target = await this.reports.target(req);
    const walked = walkChain((await this.timelines.get(target)).bySha, req.sha);
    if (!walked) throw notFound(`Commit ${req.sha} has no report for target ${target.name}`);
    const listed = req.onlyChanged ? walked.filter((w) => w.changed) : walked;
    const page = listed.slice(req.offset, req.offset + req.count);
    return {
      commits: page.map((w) => chainCommit(target.plan, w)),
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
