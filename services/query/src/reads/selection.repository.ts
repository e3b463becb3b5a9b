import { Inject, Injectable } from '@nestjs/common';
import type { SeriesCommit, SeriesSelection } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { walkChain } from './chain.js';
import { notFound } from './errors.js';
import type { TargetRecord } from './reports.repository.js';
import { TimelineCache, type Timeline, type TimelineEntry } from './timeline.cache.js';

export interface Selected {
  /** Oldest first. */
  reports: TimelineEntry[];
  truncated: boolean;
  /**
   * The timeline the reports were taken from (replaced when the target changes): values kept
   * per target that are read after it hold every version it names.
   */
  timeline: Timeline;
}

export function seriesCommit(r: TimelineEntry): SeriesCommit {
  return {
    sha: r.sha,
    subject: r.subject,
    committed_at: r.committed_at?.toISOString() ?? null,
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
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(TimelineCache) private readonly timelines: TimelineCache,
  ) {}

  async select(target: TargetRecord, selection: SeriesSelection): Promise<Selected> {
    const from = selection.from ? new Date(selection.from) : null;
    const to = selection.to ? new Date(selection.to) : null;
    const inWindow = (e: TimelineEntry) =>
      (!from || (e.committed_at !== null && e.committed_at >= from)) &&
      (!to || (e.committed_at !== null && e.committed_at <= to));
    const timeline = await this.timelines.get(target);
    let newestFirst: TimelineEntry[];
    if (selection.sha !== undefined) {
      const walked = walkChain(timeline.bySha, selection.sha);
      if (!walked)
        throw notFound(`Commit ${selection.sha} has no report for target ${target.name}`);
      newestFirst = walked.map((w) => w.node);
    } else {
      newestFirst = timeline.newestFirst.filter((e) => e.branch === selection.branch);
      // An empty window is an empty series; an unknown branch is a 404.
      if (newestFirst.length === 0) {
        throw notFound(`Branch ${selection.branch} has no report for target ${target.name}`);
      }
    }
    const picked: TimelineEntry[] = [];
    for (const e of newestFirst) {
      if (!inWindow(e)) continue;
      if (picked.length > selection.limit) break;
      picked.push(e);
    }
    const truncated = picked.length > selection.limit;
    return {
      reports: picked.slice(0, selection.limit).reverse(),
      truncated,
      timeline,
    };
  }

  /** Section totals of selected reports (large, so not part of the timeline), by report id. */
  async sectionTotals(reports: TimelineEntry[]): Promise<Map<string, unknown>> {
    if (reports.length === 0) return new Map();
    const { rows } = await this.sql.query<{ id: string; section_totals: unknown }>(
      'SELECT id::text AS id, section_totals FROM reports WHERE id = ANY($1::uuid[])',
      [reports.map((r) => r.id)],
    );
    return new Map(rows.map((r) => [r.id, r.section_totals]));
  }
}
