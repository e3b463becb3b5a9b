import type { ServiceMetrics } from './service-metrics.js';

/** The part of @clickhouse/client's client that is instrumented (structural: no dependency). */
interface InsertingClient {
  insert(params: { table: string; values?: unknown }): Promise<unknown>;
}

/**
 * Makes every `insert` of `client` count its rows and time itself by table. The client is
 * changed in place and returned, so it stays the same object for everything that holds it.
 */
export function instrumentClickHouseInserts<C extends InsertingClient>(
  client: C,
  metrics: ServiceMetrics,
): C {
  const insert = client.insert.bind(client);
  client.insert = (async (params: Parameters<C['insert']>[0]) => {
    const table = params.table;
    const stop = metrics.clickhouseInsertDuration.startTimer({ table });
    try {
      const result = await insert(params);
      if (Array.isArray(params.values)) metrics.clickhouseRows.inc({ table }, params.values.length);
      return result;
    } catch (error) {
      metrics.errors.inc({ kind: 'clickhouse_insert' });
      throw error;
    } finally {
      stop();
    }
  }) as C['insert'];
  return client;
}
