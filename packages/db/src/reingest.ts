import type { SqlPool } from './sql-pool.js';

export interface ReingestScope {
  /** Only this project's blocks; every target's when absent. */
  projectId?: string;
}

/**
 * Marks stored symbol blocks to be copied to ClickHouse again, for a ClickHouse that lost them.
 * Reports stay readable meanwhile (reads take blocks not copied yet from Postgres); the worker
 * copies them in its usual batches. A block's write attempts go on counting, so the worker
 * first asks ClickHouse whether it still holds it, and writes it under a new deduplication token
 * when not. A block kept aside as uncopiable is tried again. Returns how many blocks were marked.
 */
export async function markBlocksForCopy(sql: SqlPool, scope: ReingestScope = {}): Promise<number> {
  const { rowCount } = await sql.query(
    `UPDATE symbol_blocks SET in_clickhouse = false, copy_error = NULL
     WHERE target_id IN (SELECT id FROM targets WHERE $1::uuid IS NULL OR project_id = $1::uuid)`,
    [scope.projectId ?? null],
  );
  return rowCount ?? 0;
}
