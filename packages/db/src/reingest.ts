import type { SqlPool } from './sql-pool.js';

export interface ReingestScope {
  /** Only this project's reports; every report when absent. */
  projectId?: string;
}

/**
 * Marks stored reports for ingestion again, for a ClickHouse that lost their rows. Each gets a
 * new version of the same payload, pending, with no readable version until the worker has
 * written it (so an identical build waits for its parent's rows instead of copying none). The
 * new version means new job ids and a fresh ingest batch, whatever Redis and ClickHouse still
 * remember, and readers never mix its rows with any the old version left. `updated_at` moves so
 * cached timelines reload; the workers' sweepers enqueue the reports once they have been
 * pending for SWEEP_AFTER_MS. Returns how many reports were marked.
 */
export async function markForReingest(sql: SqlPool, scope: ReingestScope = {}): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE reports SET version = version + 1, status = 'pending', ingested_version = NULL,
            ingest_batch_id = NULL, ingest_batch_version = NULL, last_error = NULL,
            updated_at = now()
     WHERE $1::uuid IS NULL OR target_id IN (SELECT id FROM targets WHERE project_id = $1::uuid)`,
    [scope.projectId ?? null],
  );
  return rowCount ?? 0;
}
