import { Inject, Injectable } from '@nestjs/common';
import { SqlPool } from '@memtrail/db';

/** A stored report with what ingesting it needs. */
export interface StoredReport {
  id: string;
  targetId: string;
  projectId: string;
  commitSha: string;
  /** Commit time, else upload time: the time axis of the rows. */
  commitTime: Date;
  kind: 'full' | 'identical' | 'build_failed';
  parentSha: string | null;
  version: number;
  ingestedVersion: number | null;
  /** The upload envelope, gzip-compressed. */
  payload: Buffer;
}

/**
 * The worker's reads and writes of the `reports` table, in plain SQL: every job loads a payload
 * of hundreds of kilobytes and marks its report, and through Prisma's query compiler those two
 * statements cost about 45 ms of CPU per report (see SqlPool).
 */
@Injectable()
export class StoredReports {
  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  async load(id: string): Promise<StoredReport | null> {
    const { rows } = await this.sql.query<StoredReport>(
      `SELECT r.id::text, r.target_id::text AS "targetId", t.project_id::text AS "projectId",
              c.sha AS "commitSha", COALESCE(c.committed_at, r.created_at) AS "commitTime",
              r.kind::text, r.parent_sha AS "parentSha", r.version,
              r.ingested_version AS "ingestedVersion", r.payload
       FROM reports r JOIN targets t ON t.id = r.target_id JOIN commits c ON c.id = r.commit_id
       WHERE r.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * Makes `version` the readable one; false when a newer overwrite replaced it meanwhile (its
   * own job will mark it).
   */
  async markIngested(id: string, version: number): Promise<boolean> {
    const { rowCount } = await this.sql.query(
      `UPDATE reports SET status = 'ingested', ingested_version = $2, ingested_at = now(),
              last_error = NULL, updated_at = now()
       WHERE id = $1 AND version = $2`,
      [id, version],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The report of `sha` on the same target, with the version ClickHouse holds. */
  async ofCommit(
    targetId: string,
    sha: string,
  ): Promise<{ id: string; ingestedVersion: number | null } | null> {
    const { rows } = await this.sql.query<{ id: string; ingestedVersion: number | null }>(
      `SELECT r.id::text, r.ingested_version AS "ingestedVersion"
       FROM reports r JOIN commits c ON c.id = r.commit_id
       WHERE r.target_id = $1 AND c.sha = $2 LIMIT 1`,
      [targetId, sha],
    );
    return rows[0] ?? null;
  }
}
