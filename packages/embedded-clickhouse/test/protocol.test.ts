import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { ClickHouseError } from '@clickhouse/client';
import { rmSync } from 'node:fs';
import { startEmbeddedClickHouse } from '../src/index.js';
import { createClientFor, rows, startTestServer, tempDataDir, type TestServer } from './helpers.js';

describe('ClickHouse HTTP protocol', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('answers /ping and client.ping()', async () => {
    const res = await fetch(`${t.server.url}/ping`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Ok.\n');
    expect(await t.client.ping()).toEqual({ success: true });
    expect(await t.client.ping({ select: true })).toEqual({ success: true });
  });

  it('binds numeric, string, array, date-time and nullable parameters', async () => {
    const tricky = `it's a "quote", back\\slash \\' \\N, tab\there,\nnew line, ünïcødé ✓ 🚀`;
    const [row] = await rows<Record<string, unknown>>(
      t.client,
      `SELECT {id:UInt32} AS id, {name:String} AS name, {tags:Array(String)} AS tags,
              {ids:Array(UInt32)} AS ids, {at:DateTime('UTC')} AS at, {maybe:Nullable(String)} AS maybe,
              {big:UInt64} AS big`,
      {
        id: 42,
        name: tricky,
        tags: [tricky, 'plain', ''],
        ids: [1, 2, 3],
        at: new Date('2026-03-04T05:06:07Z'),
        maybe: null,
        big: '18446744073709551615',
      },
    );
    expect(row).toEqual({
      id: 42,
      name: tricky,
      tags: [tricky, 'plain', ''],
      ids: [1, 2, 3],
      at: '2026-03-04 05:06:07',
      maybe: null,
      big: 18446744073709552000, // unquoted by default, as on a ClickHouse 26 server
    });
  });

  it('never lets a parameter value change the statement', async () => {
    const attack = `x' OR 1=1 --`;
    const found = await rows<{ n: string }>(
      t.client,
      "SELECT count() AS n FROM system.one WHERE {v:String} = 'x'",
      { v: attack },
    );
    expect(Number(found[0]!.n)).toBe(0);
  });

  it('reports a missing parameter as a ClickHouse error', async () => {
    await expect(
      t.client.query({ query: 'SELECT {nope:UInt8}', format: 'JSONEachRow' }),
    ).rejects.toMatchObject({
      type: 'UNKNOWN_QUERY_PARAMETER',
    });
  });

  it('inserts and selects JSONEachRow, keeping 64-bit integers exact on request', async () => {
    await t.client.command({
      query: `CREATE TABLE wide (id UInt64, delta Int64, label String) ENGINE = MergeTree ORDER BY id`,
    });
    await t.client.insert({
      table: 'wide',
      format: 'JSONEachRow',
      values: [
        { id: '18446744073709551615', delta: '-9223372036854775808', label: 'max' },
        { id: 1, delta: -1, label: 'small' },
      ],
    });
    const result = await t.client.query({
      query: 'SELECT id, delta, label FROM wide ORDER BY id',
      format: 'JSONEachRow',
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    });
    expect(await result.json()).toEqual([
      { id: '1', delta: '-1', label: 'small' },
      { id: '18446744073709551615', delta: '-9223372036854775808', label: 'max' },
    ]);
    // The setting applied to that request only.
    const plain = await rows<{ id: number }>(t.client, 'SELECT id FROM wide WHERE id = 1');
    expect(plain).toEqual([{ id: 1 }]);
  });

  it('supports the JSON, JSONCompact and CSV result formats', async () => {
    const json = await t.client.query({ query: "SELECT 1 AS a, 'x' AS b", format: 'JSON' });
    expect((await json.json<{ a: number; b: string }>()).data).toEqual([{ a: 1, b: 'x' }]);
    const csv = await t.client.query({ query: "SELECT 1 AS a, 'x' AS b", format: 'CSVWithNames' });
    expect(await csv.text()).toBe('"a","b"\n1,"x"\n');
    const res = await fetch(
      `${t.server.url}/?query=${encodeURIComponent('SELECT 1 FORMAT JSONCompact')}`,
    );
    expect(res.headers.get('x-clickhouse-format')).toBe('JSONCompact');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('collapses ReplacingMergeTree versions with FINAL', async () => {
    await t.client.command({
      query: `CREATE TABLE rmt (key String, value UInt32, version UInt64)
              ENGINE = ReplacingMergeTree(version) ORDER BY key`,
    });
    await t.client.insert({
      table: 'rmt',
      format: 'JSONEachRow',
      values: [{ key: 'a', value: 1, version: 1 }],
    });
    await t.client.insert({
      table: 'rmt',
      format: 'JSONEachRow',
      values: [{ key: 'a', value: 2, version: 2 }],
    });
    await t.client.insert({
      table: 'rmt',
      format: 'JSONEachRow',
      values: [{ key: 'b', value: 9, version: 1 }],
    });
    const all = await rows<{ n: string }>(t.client, 'SELECT count() AS n FROM rmt');
    expect(Number(all[0]!.n)).toBe(3);
    const final = await rows(t.client, 'SELECT key, value FROM rmt FINAL ORDER BY key');
    expect(final).toEqual([
      { key: 'a', value: 2 },
      { key: 'b', value: 9 },
    ]);
  });

  it('maps engine errors to ClickHouseError with code, type and HTTP status', async () => {
    const unknown = await t.client
      .query({ query: 'SELECT * FROM missing_table' })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ClickHouseError);
    expect(unknown).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });

    // (A misspelt keyword would do too, but the client then takes the quoted
    // token for the type — `failed at position 1 (SELEC)` — as it does with a
    // real server; the code is what stays reliable.)
    const syntax = await t.client.command({ query: 'SELECT 1 +' }).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(ClickHouseError);
    expect(syntax).toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });

    const insert = await t.client
      .insert({ table: 'missing_table', values: [{ a: 1 }], format: 'JSONEachRow' })
      .catch((e: unknown) => e);
    expect(insert).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });

    const res = await fetch(
      `${t.server.url}/?query=${encodeURIComponent('SELECT * FROM missing_table')}`,
    );
    expect(res.status).toBe(404);
    expect(res.headers.get('x-clickhouse-exception-code')).toBe('60');
    expect(await res.text()).toMatch(
      /^Code: 60\. DB::Exception: .*\(UNKNOWN_TABLE\) \(version 26\.[\d.]+\)\n$/s,
    );
    const bad = await fetch(`${t.server.url}/?query=SELEC%201`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-clickhouse-exception-code')).toBe('62');
  });

  it('rejects an unknown setting without disturbing later requests', async () => {
    await expect(
      t.client.query({ query: 'SELECT 1', clickhouse_settings: { no_such_setting: 1 } as never }),
    ).rejects.toMatchObject({ code: '115', type: 'UNKNOWN_SETTING' });
    expect(await rows(t.client, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('accepts gzip request bodies and compresses responses when asked', async () => {
    const client = createClientFor(t.server.url, {
      compression: { request: true, response: true },
    });
    try {
      await client.command({
        query: 'CREATE TABLE gz (id UInt32, s String) ENGINE = MergeTree ORDER BY id',
      });
      const values = Array.from({ length: 2000 }, (_, i) => ({ id: i, s: `row-${i}`.repeat(5) }));
      await client.insert({ table: 'gz', format: 'JSONEachRow', values });
      const result = await client.query({
        query: 'SELECT count() AS n, sum(id) AS s FROM gz',
        format: 'JSONEachRow',
      });
      expect(await result.json()).toEqual([{ n: 2000, s: 1999000 }]);
    } finally {
      await client.close();
    }
    const res = await fetch(`${t.server.url}/?enable_http_compression=1`, {
      method: 'POST',
      body: 'SELECT number FROM numbers(1000) FORMAT TSV',
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect((await res.text()).split('\n').length).toBe(1001); // fetch decodes gzip
  });

  it('reads gzip bodies sent without the client and reports corrupt ones', async () => {
    await t.client.command({
      query: 'CREATE TABLE raw_gz (id UInt32) ENGINE = MergeTree ORDER BY id',
    });
    const insert = encodeURIComponent('INSERT INTO raw_gz FORMAT JSONEachRow');
    const res = await fetch(`${t.server.url}/?query=${insert}`, {
      method: 'POST',
      body: gzipSync('{"id":1}\n{"id":2}\n'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.headers.get('x-clickhouse-summary')!)).toMatchObject({
      written_rows: '2',
    });
    const corrupt = await fetch(`${t.server.url}/?query=${insert}`, {
      method: 'POST',
      body: Buffer.from('definitely not gzip'),
      headers: { 'Content-Encoding': 'gzip' },
    });
    expect(corrupt.status).toBe(400);
    expect(corrupt.headers.get('x-clickhouse-exception-code')).toBe('354');
    expect(await rows(t.client, 'SELECT id FROM raw_gz ORDER BY id')).toEqual([
      { id: 1 },
      { id: 2 },
    ]);
  });

  it('takes parameters from a multipart body', async () => {
    const client = createClientFor(t.server.url, { use_multipart_params: true });
    try {
      const names = Array.from({ length: 500 }, (_, i) => `name-'${i}'-\\`);
      const result = await client.query({
        query: 'SELECT length({names:Array(String)}) AS n, {names:Array(String)}[500] AS last',
        format: 'JSONEachRow',
        query_params: { names },
      });
      expect(await result.json()).toEqual([{ n: 500, last: names[499] }]);
    } finally {
      await client.close();
    }
  });

  it('uses the database given per request', async () => {
    await t.client.command({ query: 'CREATE DATABASE IF NOT EXISTS other' });
    const scoped = createClientFor(t.server.url, { database: 'other' });
    try {
      const [inOther] = await rows<{ db: string }>(scoped, 'SELECT currentDatabase() AS db');
      expect(inOther!.db).toBe('other');
    } finally {
      await scoped.close();
    }
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        rows<{ db: string }>(t.client, 'SELECT currentDatabase() AS db'),
      ),
    );
    expect(results.flat().every((r) => r.db === 'default')).toBe(true);
    const missing = createClientFor(t.server.url, { database: 'does_not_exist' });
    try {
      await expect(missing.query({ query: 'SELECT 1' })).rejects.toMatchObject({
        type: 'UNKNOWN_DATABASE',
      });
    } finally {
      await missing.close();
    }
  });

  it('answers GET / and rejects unknown paths', async () => {
    expect(await (await fetch(`${t.server.url}/`)).text()).toBe('Ok.\n');
    expect((await fetch(`${t.server.url}/nowhere`)).status).toBe(404);
    const empty = await fetch(`${t.server.url}/`, { method: 'POST', body: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.headers.get('x-clickhouse-exception-code')).toBe('62');
  });

  it('echoes the query id and reports a summary for inserts', async () => {
    await t.client.command({
      query: 'CREATE TABLE summary_t (id UInt32) ENGINE = MergeTree ORDER BY id',
    });
    const result = await t.client.insert({
      table: 'summary_t',
      format: 'JSONEachRow',
      values: [{ id: 1 }, { id: 2 }, { id: 3 }],
      query_id: 'insert-query-1',
    });
    expect(result.query_id).toBe('insert-query-1');
    expect(result.summary?.written_rows).toBe('3');
    // An empty insert succeeds without touching the table.
    await t.client.insert({ table: 'summary_t', format: 'JSONEachRow', values: [] });
    const n = await rows<{ n: string }>(t.client, 'SELECT count() AS n FROM summary_t');
    expect(Number(n[0]!.n)).toBe(3);
  });
});

describe('authentication', () => {
  it('checks credentials only when configured to', async () => {
    const dataDir = tempDataDir();
    const server = await startEmbeddedClickHouse({
      dataDir,
      auth: { user: 'memtrail', password: 's3cret' },
    });
    const good = createClientFor(server.url, { username: 'memtrail', password: 's3cret' });
    const bad = createClientFor(server.url, { username: 'memtrail', password: 'wrong' });
    try {
      expect(await rows(good, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
      await expect(bad.query({ query: 'SELECT 1' })).rejects.toMatchObject({
        code: '516',
        type: 'AUTHENTICATION_FAILED',
      });
      // Health checks stay open, as on a ClickHouse server.
      expect((await fetch(`${server.url}/ping`)).status).toBe(200);
    } finally {
      await good.close();
      await bad.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
