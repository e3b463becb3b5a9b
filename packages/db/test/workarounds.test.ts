// The Prisma 6.19 workarounds (src/prisma-workarounds.ts), each checked against the stock adapter
// so that a Prisma upgrade that fixes one shows up here as a test to revisit.

import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PrismaClient } from '../src/index.js';
import {
  MemtrailPgAdapterFactory,
  createPool,
  CLI_LONG_TIMER_MS,
  prepareCliEnvironment,
  PLACEHOLDER_DATABASE_URL,
  remapUnsupportedColumnTypes,
} from '../src/prisma-workarounds.js';
import { createTempDatabase, databaseExists, serverUrl, type TempDatabase } from './database.js';

const query = (sql: string) => ({ sql, args: [], argTypes: [] });

let database: TempDatabase;
beforeAll(async () => {
  database = await createTempDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe('W1: name, "char" and name[] result columns', () => {
  it('are rejected by the stock adapter', async () => {
    const stock = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
    try {
      await expect(stock.$queryRaw`SELECT current_database() AS db`).rejects.toThrow(/name/);
      await expect(stock.$queryRaw`SELECT 'c'::"char" AS kind`).rejects.toThrow(/char/);
    } finally {
      await stock.$disconnect();
    }
  });

  it('reach the schema engine typed as it expects', async () => {
    const adapter = await new MemtrailPgAdapterFactory(database.url).connect();
    try {
      const result = await adapter.queryRaw(
        query(`SELECT 'x'::name AS n, 'c'::"char" AS c, ARRAY['a','b']::name[] AS na`),
      );
      expect(result.rows).toEqual([['x', 'c', ['a', 'b']]]);
      // Text, Character (what the engine's char getter needs), TextArray.
      expect(result.columnTypes).toEqual([7, 6, 71]);
    } finally {
      await adapter.dispose();
    }
  });

  it('are relabelled for plain pool users too, with object rows', async () => {
    const pool = createPool({ connectionString: database.url });
    try {
      const { rows, fields } = await pool.query(`SELECT ARRAY['p','q']::name[] AS names`);
      expect(rows).toEqual([{ names: ['p', 'q'] }]);
      expect(fields[0]!.dataTypeID).toBe(1009);
    } finally {
      await pool.end();
    }
    // Results without fields (e.g. from a command) pass untouched.
    expect(() => remapUnsupportedColumnTypes({ command: 'BEGIN' })).not.toThrow();
    expect(() => remapUnsupportedColumnTypes(undefined)).not.toThrow();
  });
});

describe('W2: shadow database', () => {
  it('lands on the main database with the stock adapter', async () => {
    const shadow = await new PrismaPg({ connectionString: database.url }).connectToShadowDb();
    try {
      const { rows } = await shadow.queryRaw(query('SELECT current_database()::text'));
      expect(rows).toEqual([[database.name]]);
    } finally {
      await shadow.dispose();
    }
  });

  it('is a separate database, dropped when the adapter is disposed', async () => {
    const factory = new MemtrailPgAdapterFactory(database.url);
    const shadow = await factory.connectToShadowDb();
    const [[name]] = (await shadow.queryRaw(query('SELECT current_database()'))).rows as [[string]];
    expect(name).toMatch(/^prisma_migrate_shadow_db_/);
    expect(name).not.toBe(database.name);
    await shadow.executeScript('CREATE TABLE scratch (id int)');
    expect(await databaseExists(name)).toBe(true);

    await shadow.dispose();
    expect(await databaseExists(name)).toBe(false);
  });

  it('can be an existing database instead (SHADOW_DATABASE_URL)', async () => {
    const factory = new MemtrailPgAdapterFactory(serverUrl(), { shadowDatabaseUrl: database.url });
    const shadow = await factory.connectToShadowDb();
    const { rows } = await shadow.queryRaw(query('SELECT current_database()'));
    expect(rows).toEqual([[database.name]]);
    await shadow.dispose();
    expect(await databaseExists(database.name)).toBe(true);
  });
});

describe('W3: migration scripts', () => {
  it('reach the server whole, semicolons in bodies and literals included', async () => {
    const adapter = await new MemtrailPgAdapterFactory(database.url).connect();
    try {
      await adapter.executeScript(`
        CREATE TABLE notes (body text DEFAULT 'a;b');
        CREATE FUNCTION twice(x int) RETURNS int AS $$ BEGIN RETURN x * 2; END; $$ LANGUAGE plpgsql;
        INSERT INTO notes DEFAULT VALUES;`);
      const { rows } = await adapter.queryRaw(query('SELECT body, twice(21) FROM notes'));
      expect(rows).toEqual([['a;b', 42]]);

      // And a failing script leaves nothing half-done (one implicit transaction).
      await expect(
        adapter.executeScript('CREATE TABLE partial (id int); SELECT * FROM nowhere;'),
      ).rejects.toThrow();
      const { rows: partial } = await adapter.queryRaw(
        query(`SELECT to_regclass('partial')::text`),
      );
      expect(partial).toEqual([[null]]);
    } finally {
      await adapter.dispose();
    }
  });
});

describe('W4: prepareCliEnvironment', () => {
  it('fills DATABASE_URL with a placeholder only when it is unset', () => {
    const unset: NodeJS.ProcessEnv = {};
    expect(prepareCliEnvironment(unset).databaseUrl).toBeUndefined();
    expect(unset.DATABASE_URL).toBe(PLACEHOLDER_DATABASE_URL);

    const set: NodeJS.ProcessEnv = { DATABASE_URL: 'postgres://h/db', SHADOW_DATABASE_URL: 's' };
    expect(prepareCliEnvironment(set)).toEqual({
      databaseUrl: 'postgres://h/db',
      shadowDatabaseUrl: 's',
    });
    expect(set.DATABASE_URL).toBe('postgres://h/db');
  });
});

describe('W5: the CLI exits once its work is done', () => {
  it("unrefs the schema engine's long timers, and only long ones", () => {
    prepareCliEnvironment({});
    const long = setTimeout(() => undefined, CLI_LONG_TIMER_MS);
    const short = setTimeout(() => undefined, CLI_LONG_TIMER_MS - 1);
    try {
      // An unref'd timer no longer keeps the process alive; it still fires if something does.
      expect(long.hasRef()).toBe(false);
      expect(short.hasRef()).toBe(true);
    } finally {
      clearTimeout(long);
      clearTimeout(short);
    }
  });
});
