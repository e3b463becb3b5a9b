import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmbeddedClickHouse } from '../src/index.js';
import { rows, startTestServer, tempDataDir, type TestServer } from './helpers.js';

describe('persistence', () => {
  it('sees the same databases and tables after a restart on the same directory', async () => {
    const dataDir = tempDataDir();
    try {
      const first = await startTestServer(dataDir);
      await first.client.command({ query: 'CREATE DATABASE kept' });
      await first.client.command({
        query: 'CREATE TABLE kept.items (id UInt32, name String) ENGINE = MergeTree ORDER BY id',
      });
      await first.client.insert({
        table: 'kept.items',
        format: 'JSONEachRow',
        values: [
          { id: 1, name: 'one' },
          { id: 2, name: 'two' },
        ],
      });
      await first.stop();

      const second = await startTestServer(dataDir);
      try {
        expect(await rows(second.client, 'SELECT id, name FROM kept.items ORDER BY id')).toEqual([
          { id: 1, name: 'one' },
          { id: 2, name: 'two' },
        ]);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('finishes running requests before close() returns', async () => {
    const dataDir = tempDataDir();
    try {
      const s = await startTestServer(dataDir);
      await s.client.command({
        query: 'CREATE TABLE t (id UInt32) ENGINE = MergeTree ORDER BY id',
      });
      const pending = s.client.command({
        query: 'INSERT INTO t SELECT number FROM numbers(1000) WHERE sleepEachRow(0.0005) = 0',
      });
      // Close only once the insert is running inside the engine: a fixed delay raced the
      // request's arrival on a loaded machine.
      for (;;) {
        const running = await rows<{ n: number | string }>(
          s.client,
          "SELECT count() AS n FROM system.processes WHERE query LIKE 'INSERT INTO t%'",
        );
        if (Number(running[0]?.n) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      await Promise.all([pending, s.server.close()]);
      await s.client.close();
      const reopened = await startTestServer(dataDir);
      try {
        expect(await rows(reopened.client, 'SELECT count() AS n FROM t')).toEqual([{ n: 1000 }]);
      } finally {
        await reopened.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a second data directory in the same process with a clear message', async () => {
    const t = await startTestServer();
    const other = tempDataDir();
    try {
      await expect(startEmbeddedClickHouse({ dataDir: other })).rejects.toThrow(
        /one data directory per process/,
      );
      // A second server over the same directory is fine: it shares the engine.
      const twin = await startEmbeddedClickHouse({ dataDir: t.dataDir });
      await twin.close();
      expect(await rows(t.client, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    } finally {
      await t.dispose();
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('concurrency', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    await t.client.command({
      query:
        'CREATE TABLE events (id UInt32, batch UInt32, label String) ENGINE = MergeTree ORDER BY id',
    });
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('runs 50 parallel inserts and parameterised selects without mixing them up', async () => {
    const inserts = Array.from({ length: 50 }, (_, batch) =>
      t.client.insert({
        table: 'events',
        format: 'JSONEachRow',
        values: Array.from({ length: 20 }, (_, i) => ({
          id: batch * 20 + i,
          batch,
          label: `b${batch}`,
        })),
        clickhouse_settings: { insert_deduplication_token: `batch-${batch}` },
      }),
    );
    const selects = Array.from({ length: 50 }, (_, i) =>
      rows<{ v: number; s: string }>(t.client, 'SELECT {v:UInt32} * 2 AS v, {s:String} AS s', {
        v: i,
        s: `value ${i} '${'x'.repeat(i)}'`,
      }),
    );
    const [, selected] = await Promise.all([Promise.all(inserts), Promise.all(selects)]);
    selected.forEach((result, i) => {
      expect(result).toEqual([{ v: i * 2, s: `value ${i} '${'x'.repeat(i)}'` }]);
    });
    const perBatch = await rows<{ batch: number; n: number; labels: string[] }>(
      t.client,
      'SELECT batch, count() AS n, groupUniqArray(label) AS labels FROM events GROUP BY batch ORDER BY batch',
    );
    expect(perBatch).toHaveLength(50);
    perBatch.forEach((row, batch) => {
      expect(row).toEqual({ batch, n: 20, labels: [`b${batch}`] });
    });
  });

  it('answers /ping and short queries while a long statement runs', async () => {
    const long = t.client.query({
      query: 'SELECT max(sipHash64(number)) AS m FROM numbers(60000000)',
      format: 'JSONEachRow',
    });
    let longDone = false;
    void long.then(() => (longDone = true));
    // Give the long statement time to reach the engine.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ping = await fetch(`${t.server.url}/ping`);
    expect(await ping.text()).toBe('Ok.\n');
    expect(await rows(t.client, 'SELECT 42 AS answer')).toEqual([{ answer: 42 }]);
    // Both answered while the long statement was still running, not after it.
    expect(longDone).toBe(false);
    const [result] = await (await long).json<{ m: string }>();
    expect(result!.m).toBeDefined();
  });
});
