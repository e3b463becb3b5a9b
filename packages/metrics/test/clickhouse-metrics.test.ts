import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClickHouse, type ClickHouseClient } from '@memtrail/clickhouse';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { recordClickHouseInsert, ServiceMetrics } from '../src/index.js';

/** Real ClickHouse (embedded or a server): rows are counted only when the insert succeeded. */
describe('recordClickHouseInsert', () => {
  let stores: IsolatedStores;
  let client: ClickHouseClient;
  const metrics = new ServiceMetrics('ingest-worker');

  beforeAll(async () => {
    stores = await createIsolatedStores();
    client = createClickHouse({ url: stores.clickhouseUrl, database: stores.clickhouseDatabase });
    await client.command({
      query: 'CREATE TABLE metrics_probe (n UInt32) ENGINE = MergeTree ORDER BY n',
    });
  });

  const insert = (table: string, values: { n: number }[]) =>
    recordClickHouseInsert(metrics, table, values.length, () =>
      client.insert({ table, values, format: 'JSONEachRow' }),
    );

  afterAll(async () => {
    await client?.close();
    await stores?.cleanup();
  });

  it('counts inserted rows and times inserts by table', async () => {
    await insert('metrics_probe', [{ n: 1 }, { n: 2 }, { n: 3 }]);
    await insert('metrics_probe', [{ n: 4 }]);
    const stored = await (
      await client.query({ query: 'SELECT count() AS c FROM metrics_probe', format: 'JSONEachRow' })
    ).json<{ c: string }>();
    expect(Number(stored[0]!.c)).toBe(4);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'memtrail_clickhouse_rows_inserted_total{table="metrics_probe",service="ingest-worker"} 4',
    );
    expect(text).toContain(
      'memtrail_clickhouse_insert_duration_seconds_count{service="ingest-worker",table="metrics_probe"} 2',
    );
  });

  it('counts a failed insert as an error, not as rows', async () => {
    await expect(insert('no_such_table', [{ n: 1 }])).rejects.toThrow();
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('rows_inserted_total{table="no_such_table"');
    expect(text).toMatch(
      /memtrail_errors_total\{kind="clickhouse_insert",service="ingest-worker"\} 1/,
    );
  });
});
