import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { rows, startTestServer, type TestServer } from './helpers.js';

/**
 * Settings travel with one request only. chdb/connection applies per-call
 * settings with a session-wide SET, so one insert with a deduplication token
 * made every later insert count as a duplicate of it. These tests pin the
 * opposite behaviour down.
 */
describe('per-request settings', () => {
  let t: TestServer;
  let table = '';
  let n = 0;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.dispose();
  });
  beforeEach(async () => {
    table = `dedup_${++n}`;
    await t.client.command({
      query: `CREATE TABLE ${table} (id UInt32, payload String)
              ENGINE = MergeTree ORDER BY id
              SETTINGS non_replicated_deduplication_window = 1000`,
    });
  });

  const insert = (ids: number[], token?: string) =>
    t.client.insert({
      table,
      format: 'JSONEachRow',
      values: ids.map((id) => ({ id, payload: `p${id}` })),
      ...(token === undefined
        ? {}
        : { clickhouse_settings: { insert_deduplication_token: token } }),
    });
  const ids = async () =>
    (await rows<{ id: number }>(t.client, `SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);

  it('drops a repeated insert with the same token', async () => {
    await insert([1, 2], 'report-1:0');
    await insert([1, 2], 'report-1:0');
    expect(await ids()).toEqual([1, 2]);
  });

  it('keeps both inserts when their tokens differ', async () => {
    await insert([1, 2], 'report-1:0');
    await insert([1, 2], 'report-2:0');
    expect(await ids()).toEqual([1, 1, 2, 2]);
  });

  it('does not carry a token over to later inserts (the chdb/connection trap)', async () => {
    await insert([1], 'tok-A');
    await insert([2]);
    await insert([3]);
    await insert([4], 'tok-B');
    await insert([5]);
    expect(await ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps every row when tokened and untokened inserts run concurrently', async () => {
    const work = Array.from({ length: 40 }, (_, i) =>
      insert([i], i % 2 === 0 ? `tok-${i}` : undefined),
    );
    await Promise.all(work);
    expect(await ids()).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('returns every connection to default settings after a request', async () => {
    await t.client.query({
      query: 'SELECT 1',
      clickhouse_settings: {
        insert_deduplication_token: 'leak?',
        output_format_json_quote_64bit_integers: 1,
        max_threads: 1,
        date_time_input_format: 'basic', // the engine default is best_effort
      },
    });
    // A statement that changes the session itself is undone too.
    await t.client.command({ query: "SET insert_deduplication_token = 'leak-by-set'" });
    await t.client.command({
      query: "SET max_threads = 1, date_time_input_format = 'basic'",
    });
    // Ask every pooled connection (more parallel requests than connections).
    const seen = await Promise.all(
      Array.from({ length: 12 }, () =>
        rows<Record<string, string>>(
          t.client,
          `SELECT getSetting('insert_deduplication_token') AS token,
                  toString(getSetting('output_format_json_quote_64bit_integers')) AS quote64,
                  toString(getSetting('max_threads')) AS threads,
                  toString(getSetting('date_time_input_format')) AS dt`,
        ),
      ),
    );
    for (const [row] of seen) {
      expect(row!.token).toBe('');
      expect(row!.quote64).toBe('false');
      expect(row!.threads).not.toBe('1');
      expect(row!.dt).toBe('best_effort');
    }
  });

  it('applies date_time_input_format to the insert that carries it', async () => {
    await t.client.command({
      query: `CREATE TABLE ${table}_dt (at DateTime('UTC')) ENGINE = MergeTree ORDER BY at`,
    });
    const iso = [{ at: '2026-01-02T03:04:05Z' }];
    // The engine default (best_effort) reads ISO 8601; 'basic' does not.
    await expect(
      t.client.insert({
        table: `${table}_dt`,
        format: 'JSONEachRow',
        values: iso,
        clickhouse_settings: { date_time_input_format: 'basic' },
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(6|27|41)$/) });
    await t.client.insert({ table: `${table}_dt`, format: 'JSONEachRow', values: iso });
    expect(await rows(t.client, `SELECT toString(at) AS at FROM ${table}_dt`)).toEqual([
      { at: '2026-01-02 03:04:05' },
    ]);
  });

  it('recovers a connection whose request set readonly', async () => {
    await t.client.query({ query: 'SELECT 1', clickhouse_settings: { readonly: '1' } });
    await t.client.command({ query: `INSERT INTO ${table} VALUES (7, 'after readonly')` });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.client
          .command({ query: `INSERT INTO ${table} VALUES (${100 + i}, 'x')` })
          .then(() => 'ok'),
      ),
    );
    expect(results.every((r) => r === 'ok')).toBe(true);
    expect((await ids()).length).toBe(9);
  });
});
