import { cp, mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import { startEmbeddedClickHouse, type EmbeddedClickHouse } from '@memtrail/embedded-clickhouse';
import {
  createClickHouse,
  DEFAULT_MIGRATIONS_DIR,
  loadMigrations,
  migrate,
  MigrationChecksumError,
  MigrationLock,
  MutationsWaitTimeoutError,
  pingClickHouse,
  UnknownAppliedMigrationError,
} from '../src/index.js';

describe('ClickHouse migrations', () => {
  let server: EmbeddedClickHouse;
  let dataDir: string;
  let client: ClickHouseClient;
  let n = 0;
  const freshDatabase = () => `migrate_test_${++n}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrate-'));
    server = await startEmbeddedClickHouse({ dataDir, port: 0 });
    client = createClickHouse({ url: server.url, logLevel: ClickHouseLogLevel.OFF });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const query = async <T>(sql: string, params?: Record<string, unknown>): Promise<T[]> => {
    const result = await client.query({
      query: sql,
      format: 'JSONEachRow',
      ...(params ? { query_params: params } : {}),
    });
    return result.json<T>();
  };

  const symbolRow = (report: string, name: string, size: number, version: number) => ({
    project_id: 'p',
    target_id: 't',
    report_id: report,
    commit_sha: report,
    commit_time: '2026-01-01 00:00:00.000',
    name,
    address: 8,
    size,
    ingest_version: version,
  });

  it('pings the server through the configured client', async () => {
    await expect(pingClickHouse(client)).resolves.toBeUndefined();
  });

  it('applies every migration once and nothing on the second run', async () => {
    const database = freshDatabase();
    const files = await loadMigrations();
    const first = await migrate({ url: server.url, database });
    expect(first.applied.map((m) => m.file)).toEqual(files.map((f) => f.file));
    expect(first.alreadyApplied).toBe(0);

    const second = await migrate({ url: server.url, database });
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toBe(files.length);

    const recorded = await query<{ version: number; name: string }>(
      `SELECT version, name FROM ${database}.schema_migrations ORDER BY version`,
    );
    expect(recorded).toEqual(files.map((f) => ({ version: f.version, name: f.name })));
  });

  it('creates the symbol block table with its columns, key, projections and settings', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database });
    const columns = async (table: string) =>
      (
        await query<{ name: string }>(
          'SELECT name FROM system.columns WHERE database = {db:String} AND table = {t:String} ORDER BY position',
          { db: database, t: table },
        )
      ).map((c) => c.name);

    expect(await columns('symbol_blocks_v2')).toEqual([
      'project_id',
      'target_id',
      'block_hash',
      'ordinal',
      'name',
      'full_name',
      'rel',
      'size',
      'type',
      'binding',
      'visibility',
      'section',
      'source_file',
      'source_line',
      'archive',
      'object_file',
    ]);
    const tables = await query<{ name: string; engine: string; sorting_key: string }>(
      `SELECT name, engine, sorting_key FROM system.tables
       WHERE database = {db:String} AND name NOT LIKE 'schema\\_migrations%' ORDER BY name`,
      { db: database },
    );
    // 0011: one table; the per-report tables and their views of 0001-0010 are gone.
    expect(tables).toEqual([
      {
        name: 'symbol_blocks_v2',
        engine: 'ReplacingMergeTree',
        sorting_key: 'project_id, target_id, block_hash, ordinal',
      },
    ]);
    // Asked of the engine itself, so an engine that does not know a setting fails here rather
    // than in a deployment.
    const [definition] = await query<{ create_table_query: string }>(
      `SELECT create_table_query FROM system.tables WHERE database = {db:String} AND name = 'symbol_blocks_v2'`,
      { db: database },
    );
    for (const fragment of [
      'PROJECTION by_name',
      'PROJECTION by_file',
      'non_replicated_deduplication_window = 1000',
      "deduplicate_merge_projection_mode = 'rebuild'",
      "lightweight_mutation_projection_mode = 'rebuild'",
    ]) {
      expect(definition!.create_table_query).toContain(fragment);
    }
  });

  it('stores a block once however often it is written, under one token or not', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database });
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      const row = (size: number) => ({
        project_id: 'p',
        target_id: 't',
        block_hash: 'b1',
        ordinal: 0,
        name: 'main',
        size,
      });
      const insert = (token: string) =>
        db.insert({
          table: 'symbol_blocks_v2',
          format: 'JSONEachRow',
          values: [row(100)],
          clickhouse_settings: { insert_deduplication_token: token },
        });
      const count = async () => {
        const result = await db.query({
          query: 'SELECT count() AS n FROM symbol_blocks_v2',
          format: 'JSONEachRow',
        });
        return Number((await result.json<{ n: string }>())[0]!.n);
      };
      await insert('blocks:r:1:0');
      await insert('blocks:r:1:0'); // a retried job: skipped
      expect(await count()).toBe(1);
      await insert('blocks:r:2:0'); // written again under another token: collapsed by merges
      await db.command({ query: 'OPTIMIZE TABLE symbol_blocks_v2 FINAL' });
      expect(await count()).toBe(1);
    } finally {
      await db.close();
    }
  });

  it('drops the per-report tables of an earlier schema that held rows', async () => {
    const database = freshDatabase();
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      await migrate({ url: server.url, database, upTo: 10 });
      await db.insert({
        table: 'symbols_v1',
        format: 'JSONEachRow',
        values: [symbolRow('r1', 'main', 100, 1)],
      });
      const result = await migrate({ url: server.url, database });
      expect(result.applied.map((m) => m.file)).toEqual(['0011_symbol_blocks.sql']);
      const left = await query<{ name: string }>(
        `SELECT name FROM system.tables WHERE database = {db:String} AND name LIKE '%\\_v1'`,
        { db: database },
      );
      expect(left).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('applies each migration exactly once with concurrent migrators', async () => {
    const database = freshDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrations-'));
    try {
      // Non-idempotent migrations: a second application would add rows.
      await writeFile(
        join(dir, '0001_counter.sql'),
        'CREATE TABLE IF NOT EXISTS applications (version UInt32) ENGINE = MergeTree ORDER BY version;\n',
      );
      for (let v = 2; v <= 6; v++) {
        await writeFile(
          join(dir, `000${v}_step_${v}.sql`),
          `INSERT INTO applications SELECT ${v} FROM system.one WHERE sleepEachRow(0.02) = 0;\n`,
        );
      }
      const runs = await Promise.all(
        Array.from({ length: 4 }, () =>
          migrate({ url: server.url, database, migrationsDir: dir, leaseMs: 5_000 }),
        ),
      );
      const appliedFiles = runs.flatMap((r) => r.applied.map((m) => m.file)).sort();
      expect(appliedFiles).toEqual([
        '0001_counter.sql',
        '0002_step_2.sql',
        '0003_step_3.sql',
        '0004_step_4.sql',
        '0005_step_5.sql',
        '0006_step_6.sql',
      ]);
      expect(
        await query(
          `SELECT version, count() AS n FROM ${database}.applications GROUP BY version ORDER BY version`,
        ),
      ).toEqual([2, 3, 4, 5, 6].map((version) => ({ version, n: 1 })));
      expect(
        await query(
          `SELECT version, count() AS n FROM ${database}.schema_migrations GROUP BY version ORDER BY version`,
        ),
      ).toEqual([1, 2, 3, 4, 5, 6].map((version) => ({ version, n: 1 })));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets only one holder at a time into the lock', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database }); // creates the lock table
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    let inside = 0;
    let maxInside = 0;
    let entries = 0;
    try {
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          const lock = await MigrationLock.acquire(db, { leaseMs: 5_000, timeoutMs: 30_000 });
          inside++;
          entries++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((resolve) => setTimeout(resolve, 30));
          lock.assertHeld();
          inside--;
          await lock.release();
        }),
      );
    } finally {
      await db.close();
    }
    expect(entries).toBe(6);
    expect(maxInside).toBe(1);
  });

  it('takes over the lock of a migrator whose lease expired', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database });
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      const crashed = await MigrationLock.acquire(db, { leaseMs: 1_000, timeoutMs: 5_000 });
      // Simulate a crash: renewals stop and the claim is never released.
      clearInterval((crashed as unknown as { renewTimer: NodeJS.Timeout }).renewTimer);
      const next = await MigrationLock.acquire(db, { leaseMs: 5_000, timeoutMs: 10_000 });
      // Taken over only once the crashed claim's lease ran out: its holder knows it lost it.
      expect(next.owner).not.toBe(crashed.owner);
      expect(() => crashed.assertHeld()).toThrow(/Lost the migration lock/);
      next.assertHeld();
      await next.release();
    } finally {
      await db.close();
    }
  });

  it('rejects a migration file changed after it was applied', async () => {
    const database = freshDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrations-'));
    try {
      await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
      await migrate({ url: server.url, database, migrationsDir: dir });
      await appendFile(join(dir, '0001_initial.sql'), '\n-- edited afterwards\n');
      const error = await migrate({ url: server.url, database, migrationsDir: dir }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MigrationChecksumError);
      expect((error as Error).message).toMatch(
        /0001_initial\.sql was changed after it was applied/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run an older set of migrations than the database has', async () => {
    const database = freshDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrations-'));
    try {
      await writeFile(
        join(dir, '0001_a.sql'),
        'CREATE TABLE IF NOT EXISTS a (x UInt8) ENGINE = MergeTree ORDER BY x;\n',
      );
      await writeFile(
        join(dir, '0002_b.sql'),
        'CREATE TABLE IF NOT EXISTS b (x UInt8) ENGINE = MergeTree ORDER BY x;\n',
      );
      await migrate({ url: server.url, database, migrationsDir: dir });
      await rm(join(dir, '0002_b.sql'));
      await expect(
        migrate({ url: server.url, database, migrationsDir: dir }),
      ).rejects.toBeInstanceOf(UnknownAppliedMigrationError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe('mutations', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrations-'));
    });
    afterEach(() => rm(dir, { recursive: true, force: true }));

    const tableWithMutation = (assignment: string) =>
      [
        'CREATE TABLE IF NOT EXISTS t (x UInt64, y UInt64) ENGINE = MergeTree ORDER BY x;',
        'INSERT INTO t SELECT number, number FROM numbers(20);',
        // As on a ClickHouse server, the mutation runs in the background.
        `ALTER TABLE t UPDATE y = ${assignment} WHERE 1 SETTINGS mutations_sync = 0;`,
      ].join('\n');

    it('waits for running mutations before the next migration copies the rows', async () => {
      const database = freshDatabase();
      // About a second of work in the background.
      await writeFile(join(dir, '0001_t.sql'), tableWithMutation('y + 100 + sleepEachRow(0.05)'));
      await writeFile(
        join(dir, '0002_copy.sql'),
        'CREATE TABLE IF NOT EXISTS copy ENGINE = MergeTree ORDER BY x AS SELECT * FROM t;',
      );
      const events: string[] = [];
      await migrate({
        url: server.url,
        database,
        migrationsDir: dir,
        mutationsPollMs: 100,
        onEvent: (e) => events.push(`${e.type} ${e.file}`),
      });
      expect(events).toContain('waiting 0002_copy.sql');
      const [copied] = await query<{ total: number }>(
        `SELECT toUInt32(sum(y)) AS total FROM ${database}.copy`,
      );
      expect(copied?.total).toBe(190 + 20 * 100);
    });

    it('gives up on a mutation that cannot finish, naming it, and goes on once it is killed', async () => {
      const database = freshDatabase();
      await writeFile(join(dir, '0001_t.sql'), tableWithMutation("throwIf(x > 5, 'stuck')"));
      await writeFile(
        join(dir, '0002_u.sql'),
        'CREATE TABLE IF NOT EXISTS u (x UInt8) ENGINE = MergeTree ORDER BY x;',
      );
      const options = { url: server.url, database, migrationsDir: dir, mutationsPollMs: 100 };
      await migrate({ ...options, upTo: 1 });
      // Its first failure recorded (however long a busy machine takes), the wait gives up.
      for (let tries = 0; ; tries++) {
        const [failing] = await query<{ n: number }>(
          `SELECT toUInt32(count()) AS n FROM system.mutations
           WHERE database = {database:String} AND NOT is_done AND latest_fail_reason != ''`,
          { database },
        );
        if (failing?.n || tries > 600) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const error = await migrate({ ...options, mutationsTimeoutMs: 800 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MutationsWaitTimeoutError);
      expect((error as Error).message).toMatch(
        /still running after 1 s: t mutation_\S+ \(UPDATE y/,
      );
      expect((error as Error).message).toContain('1 part(s) to do, last failure: Code: 395');
      expect((error as Error).message).toContain('stuck');
      const applied = async () =>
        (
          await query<{ version: number }>(
            `SELECT version FROM ${database}.schema_migrations ORDER BY version`,
          )
        ).map((r) => r.version);
      expect(await applied()).toEqual([1]);

      await client.command({ query: `KILL MUTATION WHERE database = '${database}' SYNC` });
      await migrate(options);
      expect(await applied()).toEqual([1, 2]);
    });
  });

  it('rejects unsafe database names before touching the server', async () => {
    await expect(migrate({ url: server.url, database: 'x; DROP TABLE y' })).rejects.toThrow(
      /Invalid ClickHouse database name/,
    );
  });
});
