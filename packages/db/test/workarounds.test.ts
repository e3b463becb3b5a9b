// The Prisma CLI workarounds (src/prisma-workarounds.ts), each shown to be still needed (the
// stock setup fails without it) and to work, so that a Prisma upgrade that fixes one shows up
// here as a failing test to revisit. Measurements of W5–W7: docs/benchmarks.md.

import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PrismaClient, readMigrations } from '../src/index.js';
import {
  MemtrailPgAdapterFactory,
  CLI_LONG_TIMER_MS,
  prepareCliEnvironment,
  PLACEHOLDER_DATABASE_URL,
} from '../src/prisma-workarounds.js';
import { createTempDatabase, databaseExists, serverUrl, type TempDatabase } from './database.js';
import { npmRun, prisma } from './prisma-cli.js';

const query = (sql: string) => ({ sql, args: [], argTypes: [] });

let database: TempDatabase;
const scratch: TempDatabase[] = [];
async function freshDatabase(): Promise<TempDatabase> {
  const created = await createTempDatabase();
  scratch.push(created);
  return created;
}
beforeAll(async () => {
  database = await createTempDatabase();
});
afterAll(async () => {
  await Promise.all([database, ...scratch].map((each) => each?.drop()));
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
  it('are split on every ";" by the stock adapter, which then fails on our first migration', async () => {
    // Its comments hold semicolons: the text after one is sent as SQL.
    const [first] = await readMigrations();
    const stock = await new PrismaPg({
      connectionString: (await freshDatabase()).url,
    }).connect();
    try {
      await expect(stock.executeScript(first!.sql)).rejects.toThrow(/syntax error/);
    } finally {
      await stock.dispose();
    }
  });

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

      for (const migration of await readMigrations()) await adapter.executeScript(migration.sql);
      const { rows: tables } = await adapter.queryRaw(query(`SELECT to_regclass('reports')::text`));
      expect(tables).toEqual([['reports']]);
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

  it('lets the CLI read the schema offline without DATABASE_URL', async () => {
    // Without the placeholder, the CLI fetches the Rust library engine before doing anything.
    const validate = await prisma(['validate'], undefined);
    expect(validate.output).toContain('is valid');
    expect(validate.code).toBe(0);
  });
});

describe('W5: a migrate command exits once done', () => {
  it('though the schema engine leaves 10 s timers and the CLI its connection behind', async () => {
    const deploy = await prisma(['migrate', 'deploy'], (await freshDatabase()).url);
    expect(deploy.code).toBe(0);
    // The schema engine's timers (never cleared) did not keep the process alive: it exited with
    // some pending. Without W5 they all fire first; were they cleared, none would be pending.
    expect(deploy.atExit.pendingCliTimers).toBeGreaterThan(0);
    // Nor did the pool's idle connection, which the CLI never closes (allowExitOnIdle): it was
    // still open. Without it the pool closes it after idleTimeoutMillis, then the process exits.
    expect(deploy.atExit.openSockets).toBeGreaterThan(0);
  });

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

describe('W6: migrate dev on a database with pending migrations', () => {
  it('fails in the stock CLI after applying them', async () => {
    const dev = await prisma(['migrate', 'dev', '--skip-generate'], (await freshDatabase()).url);
    expect(dev.output).toContain(
      'PostgreSQL shadow DB must be provided through an external factory',
    );
  });

  it('passes through `npm run migrate:dev`, which applies them first', async () => {
    const { url } = await freshDatabase();
    const dev = await npmRun('migrate:dev', ['--skip-generate'], url);
    expect(dev.output).toContain('Already in sync');
    expect(dev.code).toBe(0);
    const status = await prisma(['migrate', 'status'], url);
    expect(status.output).toContain('Database schema is up to date');
  });
});
