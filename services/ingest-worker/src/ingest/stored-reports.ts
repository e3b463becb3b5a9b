import { Inject, Injectable } from '@nestjs/common';
import { SqlPool, type ReportStatus } from '@memtrail/db';

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
  /** The ingest batch this version was written in, when one was formed for it. */
  batchId: string | null;
  /** The upload envelope, gzip-compressed. */
  payload: Buffer;
}

/** One report version of an ingest batch. */
export interface BatchMember {
  id: string;
  version: number;
}

const SELECT_REPORT = `
  SELECT r.id::text, r.target_id::text AS "targetId", t.project_id::text AS "projectId",
         c.sha AS "commitSha", COALESCE(c.committed_at, r.created_at) AS "commitTime",
         r.kind::text, r.parent_sha AS "parentSha", r.version,
         r.ingested_version AS "ingestedVersion",
         CASE WHEN r.ingest_batch_version = r.version THEN r.ingest_batch_id::text END AS "batchId",
         r.payload
  FROM reports r JOIN targets t ON t.id = r.target_id JOIN commits c ON c.id = r.commit_id`;

/** A parent's state, for an identical build that copies its rows. */
export interface CommitReport {
  id: string;
  ingestedVersion: number | null;
  status: ReportStatus;
  lastError: string | null;
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
    const { rows } = await this.sql.query<StoredReport>(`${SELECT_REPORT} WHERE r.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * Records `batchId` as the batch of each member version that is still current, not ingested
   * and in no batch yet; returns the ids recorded. Only they may be written under its token.
   */
  async joinBatch(batchId: string, members: readonly BatchMember[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ id: string }>(
      `UPDATE reports r SET ingest_batch_id = $1, ingest_batch_version = m.version
       FROM unnest($2::uuid[], $3::int[]) AS m(id, version)
       WHERE r.id = m.id AND r.version = m.version
         AND r.ingested_version IS DISTINCT FROM m.version
         AND r.ingest_batch_version IS DISTINCT FROM m.version
       RETURNING r.id::text`,
      [batchId, members.map((m) => m.id), members.map((m) => m.version)],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** The batch's members that are still current and not yet ingested, for replaying it. */
  async pendingMembers(batchId: string): Promise<StoredReport[]> {
    const { rows } = await this.sql.query<StoredReport>(
      `${SELECT_REPORT}
       WHERE r.ingest_batch_id = $1 AND r.ingest_batch_version = r.version
         AND r.ingested_version IS DISTINCT FROM r.version
       ORDER BY r.id`,
      [batchId],
    );
    return rows;
  }

  /**
   * Makes each member's version the readable one; returns the ids marked. A member missing from
   * the result was replaced by a newer overwrite meanwhile (its own job will mark it).
   */
  async markIngested(members: readonly BatchMember[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ id: string }>(
      `UPDATE reports r SET status = 'ingested', ingested_version = m.version,
              ingested_at = now(), last_error = NULL, updated_at = now()
       FROM unnest($1::uuid[], $2::int[]) AS m(id, version)
       WHERE r.id = m.id AND r.version = m.version
       RETURNING r.id::text`,
      [members.map((m) => m.id), members.map((m) => m.version)],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** The report of `sha` on the same target, with the version ClickHouse holds. */
  async ofCommit(targetId: string, sha: string): Promise<CommitReport | null> {
    const { rows } = await this.sql.query<CommitReport>(
      `SELECT r.id::text, r.ingested_version AS "ingestedVersion", r.status::text AS status,
              r.last_error AS "lastError"
       FROM reports r JOIN targets t ON t.id = r.target_id
       JOIN commits c ON c.id = r.commit_id AND c.project_id = t.project_id
       WHERE r.target_id = $1 AND c.sha = $2 LIMIT 1`,
      [targetId, sha],
    );
    return rows[0] ?? null;
  }
}
