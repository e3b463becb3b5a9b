import { Inject, Injectable } from '@nestjs/common';
import { RegionPlan, type TargetRef } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { notFound } from './errors.js';
import type { ReportRecord } from './report-rows.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TargetRecord {
  id: string;
  projectId: string;
  name: string;
  /** The target's region configuration, applied to every region and source path it answers. */
  plan: RegionPlan;
  /** The configuration as stored: a cache key for what the plan shapes. */
  planKey: string;
}

/** A report with its commit, as the columns of REPORT_COLUMNS name them: flat, then nested. */
type ReportRow = Omit<ReportRecord, 'projectId' | 'targetName' | 'plan' | 'planKey' | 'commit'> &
  ReportRecord['commit'];

/** Columns of ReportRow, from `reports r JOIN commits c` (never the payload). */
const REPORT_COLUMNS = `r.id, r.target_id AS "targetId", r.kind, r.status, r.branch,
  r.parent_sha AS "parentSha", r.overwrite_count AS "overwriteCount", r.version,
  r.ingested_version AS "ingestedVersion", r.symbol_count AS "symbolCount",
  r.created_at AS "createdAt", r.region_totals AS "regionTotals",
  r.section_totals AS "sectionTotals", c.sha, c.message, c.author_name AS "authorName",
  c.author_email AS "authorEmail", c.committed_at AS "committedAt", c.tags`;

function reportRecord(
  { sha, message, authorName, authorEmail, committedAt, tags, ...report }: ReportRow,
  target: TargetRecord,
): ReportRecord {
  return {
    ...report,
    commit: { sha, message, authorName, authorEmail, committedAt, tags },
    ...targetFields(target),
  };
}

const targetFields = ({ projectId, name, plan, planKey }: TargetRecord) => ({
  projectId,
  targetName: name,
  plan,
  planKey,
});

/** Targets and single reports, looked up by the names and SHAs of the URL (plain SQL: SqlPool). */
@Injectable()
export class ReportsRepository {
  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  async target(ref: TargetRef): Promise<TargetRecord> {
    const { rows } = UUID.test(ref.projectId)
      ? await this.sql.query<{
          id: string;
          projectId: string;
          name: string;
          regionConfig: unknown;
        }>({
          name: 'query-target',
          text: `SELECT id, project_id AS "projectId", name, region_config AS "regionConfig"
                 FROM targets WHERE project_id = $1 AND name = $2`,
          values: [ref.projectId, ref.target],
        })
      : { rows: [] };
    const row = rows[0];
    if (!row) throw notFound(`Target ${ref.target} not found`);
    const { regionConfig, ...target } = row;
    return {
      ...target,
      plan: RegionPlan.of(regionConfig),
      planKey: JSON.stringify(regionConfig ?? null),
    };
  }

  /** The report of `sha` for the target; 404 names both when there is none. */
  async report(target: TargetRecord, sha: string): Promise<ReportRecord> {
    const { rows } = await this.sql.query<ReportRow>({
      name: 'query-report',
      text: `SELECT ${REPORT_COLUMNS} FROM reports r JOIN commits c ON c.id = r.commit_id
             WHERE r.target_id = $1 AND c.project_id = $2 AND c.sha = $3`,
      values: [target.id, target.projectId, sha],
    });
    const row = rows[0];
    if (!row) throw notFound(`Commit ${sha} has no report for target ${target.name}`);
    return reportRecord(row, target);
  }

  /** The first and last ingested report of a branch within a time window (inclusive). */
  async branchEnds(
    target: TargetRecord,
    branch: string,
    from: Date | null,
    to: Date | null,
  ): Promise<[ReportRecord, ReportRecord]> {
    const { rows } = await this.sql.query<ReportRow & { last: boolean }>(
      `WITH window_reports AS (
         SELECT ${REPORT_COLUMNS} FROM reports r JOIN commits c ON c.id = r.commit_id
         WHERE r.target_id = $1 AND r.branch = $2 AND r.ingested_version IS NOT NULL
           AND c.committed_at IS NOT NULL
           AND ($3::timestamptz IS NULL OR c.committed_at >= $3)
           AND ($4::timestamptz IS NULL OR c.committed_at <= $4)
       )
       (SELECT *, false AS last FROM window_reports ORDER BY "committedAt" ASC LIMIT 1)
       UNION ALL
       (SELECT *, true FROM window_reports ORDER BY "committedAt" DESC LIMIT 1)`,
      [target.id, branch, from, to],
    );
    const first = rows.find((row) => !row.last);
    const last = rows.find((row) => row.last);
    if (!first || !last) {
      throw notFound(
        `Branch ${branch} of target ${target.name} has no ingested report in that window`,
      );
    }
    const record = ({ last: _, ...row }: ReportRow & { last: boolean }) =>
      reportRecord(row, target);
    return [record(first), record(last)];
  }
}
