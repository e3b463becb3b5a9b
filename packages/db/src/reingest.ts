import type { SqlPool } from './sql-pool.js';
import { inTransaction } from './sql-pool.js';

export interface ReingestScope {
  /** Only this project's reports; every report when absent. */
  projectId?: string;
}

/**
 * Marks stored reports for ingestion again, for a ClickHouse that lost their rows. Each report
 * gets a new version with the same header and record, pending, with no readable version until
 * the worker has ingested it, and every block of the scope is copied to ClickHouse again. The
 * new version
 * means new job ids, whatever Redis still remembers. A report whose upload predates report
 * versions keeps its legacy payload, which the worker turns into a version first. `updated_at`
 * moves so cached timelines reload; the workers' sweepers enqueue the reports once they have
 * been pending for SWEEP_AFTER_MS. Returns how many reports were marked.
 */
export async function markForReingest(sql: SqlPool, scope: ReingestScope = {}): Promise<number> {
  return inTransaction(sql, async (db) => {
    const targets = `SELECT id FROM targets WHERE $1::uuid IS NULL OR project_id = $1::uuid`;
    const project = [scope.projectId ?? null];
    // Copied again by the worker; a block's write attempts go on counting, so ClickHouse is
    // asked first whether it still holds it, and new attempts mean new deduplication tokens.
    await db.query(
      `UPDATE symbol_blocks SET in_clickhouse = false, copy_error = NULL
       WHERE target_id IN (${targets})`,
      project,
    );
    await db.query(
      `INSERT INTO report_versions (report_id, version, target_id, header, record,
         record_base_report_id, record_base_version, record_depth)
       SELECT v.report_id, v.version + 1, v.target_id, v.header, v.record,
         v.record_base_report_id, v.record_base_version, v.record_depth
       FROM reports r JOIN report_versions v ON v.report_id = r.id AND v.version = r.version
       WHERE r.target_id IN (${targets})`,
      project,
    );
    const { rowCount } = await db.query(
      `UPDATE reports SET version = version + 1, status = 'pending', ingested_version = NULL,
              last_error = NULL, updated_at = now()
       WHERE target_id IN (${targets})`,
      project,
    );
    return rowCount ?? 0;
  });
}
