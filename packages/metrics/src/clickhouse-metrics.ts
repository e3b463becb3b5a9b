import type { ServiceMetrics } from './service-metrics.js';

/**
 * Runs one ClickHouse insert of `rows` rows into `table`: times it by table, counts the rows
 * once it succeeded, and counts a failure as an error (which still reaches the caller).
 */
export async function recordClickHouseInsert<T>(
  metrics: ServiceMetrics,
  table: string,
  rows: number,
  insert: () => Promise<T>,
): Promise<T> {
  const stop = metrics.clickhouseInsertDuration.startTimer({ table });
  try {
    const result = await insert();
    metrics.clickhouseRows.inc({ table }, rows);
    return result;
  } catch (error) {
    metrics.errors.inc({ kind: 'clickhouse_insert' });
    throw error;
  } finally {
    stop();
  }
}
