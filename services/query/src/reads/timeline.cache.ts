import { Inject, Injectable } from '@nestjs/common';
import type { ReportKindName, ReportStatusName } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { StampedCache } from '../store/stamped-cache.js';
import type { TargetRecord } from './reports.repository.js';

/** One report of a target with its commit: everything chains, series and pages need. */
export interface TimelineEntry {
  id: string;
  sha: string;
  parent_sha: string | null;
  kind: ReportKindName;
  status: ReportStatusName;
  branch: string | null;
  ingested_version: number | null;
  created_at: Date;
  committed_at: Date | null;
  message: string | null;
  subject: string | null;
  author_name: string | null;
  author_email: string | null;
  tags: string[];
  region_totals: unknown;
  /** 64-bit hash of the region totals as jsonb (key order does not matter). */
  totals_key: string;
}

export interface Timeline {
  bySha: Map<string, TimelineEntry>;
  /** Newest first by commit time (then upload time), as series take them. */
  newestFirst: TimelineEntry[];
}

/** Targets whose timelines are kept; the least recently used is dropped beyond this. */
const MAX_TARGETS = 32;

/**
 * Every report of a target with its commit, read from Postgres once and kept while nothing
 * changes. Each use first reads a stamp — count and summed update times of the target's
 * reports and of the project's commits — so any upload, overwrite, ingestion or commit
 * backfill is seen by the very next read; only an unchanged target is served from memory.
 * Reading 5,000 reports with their commits costs tens of milliseconds, the stamp 2-3.
 */
@Injectable()
export class TimelineCache {
  private readonly cache = new StampedCache<Timeline>(MAX_TARGETS);

  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  async get(target: TargetRecord): Promise<Timeline> {
    const stamp = await this.stamp(target);
    return this.cache.get(target.id, stamp, () => this.load(target));
  }

  private async stamp(target: TargetRecord): Promise<string> {
    const { rows } = await this.sql.query<{ stamp: string }>({
      name: 'query-timeline-stamp',
      // Index-only scans of (target_id, updated_at) and (project_id, updated_at); an interval
      // sum is exact (microseconds) and cheaper than a numeric one.
      text: `SELECT concat_ws('/',
        (SELECT count(*) || ':' || coalesce(sum(updated_at - timestamptz 'epoch'), interval '0')
           FROM reports WHERE target_id = $1::uuid),
        (SELECT count(*) || ':' || coalesce(sum(updated_at - timestamptz 'epoch'), interval '0')
           FROM commits WHERE project_id = $2::uuid)) AS stamp`,
      values: [target.id, target.projectId],
    });
    return rows[0]!.stamp;
  }

  private async load(target: TargetRecord): Promise<Timeline> {
    const { rows } = await this.sql.query<TimelineEntry>(
      `SELECT r.id::text AS id, c.sha, r.parent_sha, r.kind::text AS kind, r.status::text AS status,
             r.branch, r.ingested_version, r.created_at, c.committed_at, c.message,
             split_part(c.message, E'\n', 1) AS subject, c.author_name, c.author_email, c.tags,
             r.region_totals, jsonb_hash_extended(r.region_totals, 0)::text AS totals_key
      FROM reports r JOIN commits c ON c.id = r.commit_id
      WHERE r.target_id = $1::uuid
      ORDER BY c.committed_at DESC NULLS LAST, r.created_at DESC`,
      [target.id],
    );
    return { bySha: new Map(rows.map((e) => [e.sha, e])), newestFirst: rows };
  }
}
