import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  FILE_INSERT_MIN_BYTES,
  fileInputStatement,
  fileInsertStatement,
} from '../src/engine/file-insert.js';
import { rows, startTestServer, type TestServer } from './helpers.js';

/** `rewrite` leaves `sql` alone (the statement is named in a failure). */
function expectNoRewrite(rewrite: (sql: string, path: string) => string | undefined, sql: string) {
  expect({ sql, statement: rewrite(sql, '/x') }).toEqual({ sql, statement: undefined });
}

describe('fileInsertStatement', () => {
  it('reads plain inserts from the file, keeping table, columns and format', () => {
    expect(fileInsertStatement('INSERT INTO db.t (a, b_2) FORMAT TabSeparated', '/x/y')).toBe(
      "INSERT INTO db.t (a, b_2) FROM INFILE '/x/y' COMPRESSION 'none' FORMAT TabSeparated",
    );
    expect(fileInsertStatement('insert into table `we.ird` format CSV;\n', "/it's")).toBe(
      "insert into table `we.ird` FROM INFILE '/it\\'s' COMPRESSION 'none' FORMAT CSV",
    );
  });

  it('leaves every other statement to the inline path', () => {
    for (const sql of [
      'INSERT INTO t (a) SETTINGS async_insert = 1 FORMAT TabSeparated',
      'INSERT INTO t SELECT * FROM input() FORMAT TabSeparated',
      'INSERT INTO t VALUES',
      'INSERT INTO t (`a`) FORMAT TabSeparated',
      'INSERT INTO t FORMAT TabSeparated 1\t2',
      'SELECT 1 FORMAT TabSeparated',
    ]) {
      expectNoRewrite(fileInsertStatement, sql);
    }
  });
});

describe('fileInputStatement', () => {
  it('reads the input table from the file, in the format the statement names', () => {
    expect(
      fileInputStatement(
        "INSERT INTO t (k, a, b) SELECT 'it\\'s', * FROM input('a UInt32, b String') FORMAT TabSeparated\n",
        "/x/it's",
      ),
    ).toBe(
      "INSERT INTO t (k, a, b) SELECT 'it\\'s', * FROM file('/x/it\\'s', 'TabSeparated', 'a UInt32, b String', 'none')",
    );
  });

  it('refuses shapes it cannot rewrite exactly', () => {
    for (const sql of [
      "INSERT INTO t SELECT * FROM input('a UInt32') FORMAT",
      'INSERT INTO t SELECT * FROM input() FORMAT TabSeparated',
      "INSERT INTO t SELECT * FROM input('a UInt32') JOIN input('b UInt32') USING a FORMAT CSV",
    ]) {
      expectNoRewrite(fileInputStatement, sql);
    }
  });
});

describe('large insert bodies', () => {
  let t: TestServer;
  const count = 20_000;
  // Tabs, newlines, backslashes, quotes and non-ASCII text, escaped as TabSeparated wants.
  const payload = (id: number) => `p${id}\\t"quote'\\\\ü€🙂\\n`;
  const body = Buffer.from(
    Array.from({ length: count }, (_, id) => `${id}\t${payload(id)}\n`).join(''),
  );

  beforeAll(async () => {
    t = await startTestServer();
    await t.client.command({
      query: `CREATE TABLE big (id UInt32, payload String) ENGINE = MergeTree ORDER BY id
              SETTINGS non_replicated_deduplication_window = 1000`,
    });
  });
  afterAll(async () => {
    await t.dispose();
  });

  const insert = (token?: string) =>
    t.client.insert({
      table: 'big',
      columns: ['id', 'payload'],
      format: 'TabSeparated',
      values: Readable.from([body], { objectMode: false }),
      ...(token === undefined
        ? {}
        : { clickhouse_settings: { insert_deduplication_token: token } }),
    });
  const stats = async () =>
    (
      await rows<{ n: number; ids: number; bad: number }>(
        t.client,
        `SELECT count() AS n, uniqExact(id) AS ids,
                countIf(payload != concat('p', toString(id), '\\t"quote\\'\\\\ü€🙂\\n')) AS bad
         FROM big`,
      )
    )[0];

  it('stores every row of a body above the file threshold exactly, and counts them', async () => {
    expect(body.length).toBeGreaterThan(FILE_INSERT_MIN_BYTES);
    const result = await insert('big-1');
    expect(result.summary?.written_rows).toBe(String(count));
    expect(await stats()).toEqual({ n: count, ids: count, bad: 0 });
  });

  it('drops a repeated large insert with the same token, and keeps one with a new token', async () => {
    await insert('big-1');
    expect((await stats())?.n).toBe(count);
    await insert('big-2');
    expect((await stats())?.n).toBe(2 * count);
    // The token stays with its request: an insert without one is never a duplicate.
    await insert();
    expect((await stats())?.n).toBe(3 * count);
  });

  it('reports a malformed large body as a parse error and leaves no file behind', async () => {
    const broken = Buffer.concat([body, Buffer.from('not-a-number\tx\n')]);
    await expect(
      t.client.insert({
        table: 'big',
        columns: ['id', 'payload'],
        format: 'TabSeparated',
        values: Readable.from([broken], { objectMode: false }),
      }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^(6|27|72)$/) });
    expect(readdirSync(join(t.dataDir, 'insert-bodies'))).toEqual([]);
  });
});

describe('inserts selecting from input()', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    await t.client.command({
      query: `CREATE TABLE keyed (k String, id UInt32, payload String) ENGINE = MergeTree
              ORDER BY id SETTINGS non_replicated_deduplication_window = 1000`,
    });
  });
  afterAll(async () => {
    await t.dispose();
  });

  const insert = async (key: string, count: number, token: string) => {
    const body = Buffer.from(
      Array.from({ length: count }, (_, id) => `${id}\tp${id}\\t'x'\n`).join(''),
    );
    const result = await t.client.exec({
      query: `INSERT INTO keyed (k, id, payload) SELECT '${key}', id, payload
              FROM input('id UInt32, payload String') FORMAT TabSeparated`,
      values: Readable.from([body], { objectMode: false }),
      clickhouse_settings: { insert_deduplication_token: token },
    });
    await finished(result.stream.resume());
    return body.length;
  };
  const count = async (key: string) =>
    (
      await rows<{ n: number; bad: number }>(
        t.client,
        `SELECT count() AS n, countIf(payload != concat('p', toString(id), '\\t\\'x\\'')) AS bad
         FROM keyed WHERE k = {key:String}`,
        { key },
      )
    )[0];

  it('stores every row of small and large bodies with the selected constants', async () => {
    expect(await insert('small', 10, 'small-1')).toBeLessThan(FILE_INSERT_MIN_BYTES);
    expect(await insert('large', 30_000, 'large-1')).toBeGreaterThan(FILE_INSERT_MIN_BYTES);
    expect(await count('small')).toEqual({ n: 10, bad: 0 });
    expect(await count('large')).toEqual({ n: 30_000, bad: 0 });
    expect(readdirSync(join(t.dataDir, 'insert-bodies'))).toEqual([]);
  });

  it('drops a repeated insert with the same token', async () => {
    await insert('large', 30_000, 'large-1');
    expect(await count('large')).toEqual({ n: 30_000, bad: 0 });
  });

  it('rejects an input() statement it cannot read, instead of writing nothing', async () => {
    await expect(
      t.client.exec({
        query: `INSERT INTO keyed SELECT * FROM input('k String, id UInt32, payload String')`,
        values: Readable.from([Buffer.from('a\t1\tb\n')], { objectMode: false }),
      }),
    ).rejects.toMatchObject({ code: '48' });
  });
});
