import { gzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import {
  inTransaction,
  readRecord,
  readStoredPayload,
  SqlPool,
  storableRecord,
  type ReportStatus,
  type StoredRecord,
  type VersionKey,
} from '@memtrail/db';
import { UnrecoverableError } from 'bullmq';
import { LRUCache } from 'lru-cache';
import { isStoreUnreachable } from './outage.js';
import {
  blockEvents,
  decodeRecord,
  storedForm,
  type StoredForm,
  type VersionRecord,
} from '@memtrail/symbol-blocks';

/** A stored report with what ingesting it needs. */
export interface StoredReport {
  id: string;
  targetId: string;
  projectId: string;
  kind: 'full' | 'identical' | 'build_failed';
  parentSha: string | null;
  version: number;
  ingestedVersion: number | null;
  /** Whether the current version is stored as a version at all (or only as a legacy payload). */
  hasVersion: boolean;
  /** Whether that version has its record (an identical build's is copied when ingested). */
  hasRecord: boolean;
}

/** A report of the same target, by commit (an identical build's parent). */
export interface CommitReport {
  id: string;
  version: number;
  status: ReportStatus;
  lastError: string | null;
  /** Whether its current version has a record to copy. */
  hasRecord: boolean;
}

const hex = (hashes: readonly string[]) => hashes.map((h) => Buffer.from(h, 'hex'));

/**
 * The worker's reads and writes of reports in Postgres, in plain SQL (see SqlPool): the report
 * and its version's record, and the version's block events and ingestion, recorded together.
 */
@Injectable()
export class StoredReports {
  /** Records decoded lately: a version's record is usually written as changes to the one before. */
  private readonly records = new LRUCache<string, StoredRecord>({ max: 256 });

  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  async load(id: string): Promise<StoredReport | null> {
    const { rows } = await this.sql.query<StoredReport>(
      `SELECT r.id::text, r.target_id::text AS "targetId", t.project_id::text AS "projectId",
              r.kind::text, r.parent_sha AS "parentSha", r.version,
              r.ingested_version AS "ingestedVersion", v.report_id IS NOT NULL AS "hasVersion",
              v.record IS NOT NULL AS "hasRecord"
       FROM reports r JOIN targets t ON t.id = r.target_id
       LEFT JOIN report_versions v ON v.report_id = r.id AND v.version = r.version
       WHERE r.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * Turns an upload stored before report versions (a whole gzip payload) into its version and
   * blocks, as the gateway stores uploads now (its record as changes to `parent`'s when given),
   * and clears the payload. False when there is no payload to convert (another job did it, or
   * the report changed).
   */
  async convertLegacyPayload(
    report: StoredReport,
    parent: (VersionKey & StoredRecord) | null,
  ): Promise<boolean> {
    const { rows } = await this.sql.query<{ payload: Buffer | null }>(
      'SELECT payload FROM reports WHERE id = $1 AND version = $2',
      [report.id, report.version],
    );
    const payload = rows[0]?.payload;
    if (!payload) return false;
    let form: StoredForm;
    try {
      form = storedForm(await readStoredPayload(payload), report.kind);
    } catch (error) {
      throw new UnrecoverableError(
        `report ${report.id}: stored payload is unreadable: ${(error as Error).message}`,
      );
    }
    const record = form.record && storableRecord(decodeRecord(form.record), parent);
    await inTransaction(this.sql, async (db) => {
      const { rowCount } = await db.query(
        `INSERT INTO report_versions (report_id, version, target_id, header, record,
           record_base_report_id, record_base_version, record_depth)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [
          report.id,
          report.version,
          report.targetId,
          form.header,
          record?.record ?? null,
          record?.base?.reportId ?? null,
          record?.base?.version ?? null,
          record?.depth ?? 0,
        ],
      );
      if (rowCount === 0) return;
      const data = form.blocks.map((b) => gzipBlock(b.canonical));
      await db.query(
        `INSERT INTO symbol_blocks (target_id, hash, data, symbol_count)
         SELECT $1, b.hash, b.data, b.symbols
         FROM unnest($2::bytea[], $3::bytea[], $4::int[]) AS b(hash, data, symbols)
         ON CONFLICT DO NOTHING`,
        [
          report.targetId,
          hex(form.blocks.map((b) => b.hash)),
          data,
          form.blocks.map((b) => b.symbolCount),
        ],
      );
      await db.query('UPDATE reports SET payload = NULL WHERE id = $1 AND version = $2', [
        report.id,
        report.version,
      ]);
    });
    return true;
  }

  /** The report of `sha` on the same target, with its current version's record. */
  async ofCommit(targetId: string, sha: string): Promise<CommitReport | null> {
    const { rows } = await this.sql.query<CommitReport>(
      `SELECT r.id::text, r.version, r.status::text AS status, r.last_error AS "lastError",
              v.record IS NOT NULL AS "hasRecord"
       FROM reports r JOIN targets t ON t.id = r.target_id
       JOIN commits c ON c.id = r.commit_id AND c.project_id = t.project_id
       LEFT JOIN report_versions v ON v.report_id = r.id AND v.version = r.version
       WHERE r.target_id = $1 AND c.sha = $2 LIMIT 1`,
      [targetId, sha],
    );
    return rows[0] ?? null;
  }

  /**
   * A version's record, rebuilt from its chain; a record that cannot be read (damaged bytes)
   * fails the job for good, since retrying cannot mend it.
   */
  async record(key: VersionKey): Promise<StoredRecord | null> {
    try {
      return await readRecord(this.sql, key.reportId, key.version, this.records);
    } catch (error) {
      if (isStoreUnreachable(error)) throw error;
      throw new UnrecoverableError(
        `report ${key.reportId} v${key.version}: stored version is unreadable: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Gives an identical build's version its parent's record, written as "the same as the
   * parent's" (once; a retry finds it set).
   */
  async copyRecord(report: StoredReport, parent: VersionKey & StoredRecord): Promise<void> {
    const stored = storableRecord(parent.record, parent);
    await this.sql.query(
      `UPDATE report_versions SET record = $3, record_base_report_id = $4, record_base_version = $5,
              record_depth = $6
       WHERE report_id = $1 AND version = $2 AND record IS NULL`,
      [
        report.id,
        report.version,
        stored.record,
        stored.base?.reportId ?? null,
        stored.base?.version ?? null,
        stored.depth,
      ],
    );
  }

  /**
   * The version whose blocks this one's events count from: the parent's ingested version, else
   * the target's most recently ingested one (any version gives correct counts; a close one
   * gives few events). Null for a target's first report.
   */
  async baseFor(report: StoredReport): Promise<{ key: VersionKey; record: VersionRecord } | null> {
    const { rows } = await this.sql.query<{ report_id: string; version: number }>(
      `SELECT b.id::text AS report_id, b.ingested_version AS version FROM (
         (SELECT r.id, r.ingested_version, 0 AS rank FROM reports r
          JOIN commits c ON c.id = r.commit_id
          WHERE r.target_id = $1 AND c.project_id = $2 AND c.sha = $3
            AND r.ingested_version IS NOT NULL AND r.id <> $4)
         UNION ALL
         (SELECT r.id, r.ingested_version, 1 FROM reports r
          WHERE r.target_id = $1 AND r.ingested_version IS NOT NULL AND r.id <> $4
          ORDER BY r.ingested_at DESC LIMIT 1)
       ) b ORDER BY b.rank LIMIT 1`,
      [report.targetId, report.projectId, report.parentSha ?? '', report.id],
    );
    const row = rows[0];
    if (!row) return null;
    const key = { reportId: row.report_id, version: row.version };
    const stored = await this.record(key);
    return stored && { key, record: stored.record };
  }

  /**
   * Records the version's block events against its base and makes the version readable — one
   * statement, so all or nothing; only a version still current is marked (a newer overwrite
   * stays pending). False when the report moved on meanwhile (the events are recorded all the
   * same: they are facts about this version).
   */
  async markIngested(
    report: StoredReport,
    record: VersionRecord,
    base: { key: VersionKey; record: VersionRecord } | null,
  ): Promise<boolean> {
    const events = [...blockEvents(record, base?.record ?? null)];
    const { rows } = await this.sql.query<{ marked: boolean }>(
      `WITH events AS (
         -- The statement is all or nothing and a marked version is not ingested again, so a
         -- version's events are written once; the conflict clause is a guard only.
         INSERT INTO block_events (target_id, block_hash, report_id, version, delta)
         SELECT $1, e.hash, $2, $3, e.delta FROM unnest($4::bytea[], $5::int[]) AS e(hash, delta)
         ON CONFLICT DO NOTHING
       ), based AS (
         UPDATE report_versions SET base_report_id = $6, base_version = $7
         WHERE report_id = $2 AND version = $3
       ), marked AS (
         -- Checked again on the row as it is when updated: an overwrite committed meanwhile
         -- leaves the report pending for its own job.
         UPDATE reports SET status = 'ingested', ingested_version = version, ingested_at = now(),
                last_error = NULL, updated_at = now()
         WHERE id = $2 AND version = $3
         RETURNING id
       )
       SELECT EXISTS (SELECT 1 FROM marked) AS marked`,
      [
        report.targetId,
        report.id,
        report.version,
        hex(events.map(([hash]) => hash)),
        events.map(([, delta]) => delta),
        base?.key.reportId ?? null,
        base?.key.version ?? null,
      ],
    );
    return rows[0]!.marked;
  }
}

function gzipBlock(canonical: Buffer): Buffer {
  return gzipSync(canonical, { level: 6 });
}
