import { cp, mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import { startClickHouseLocal, type ClickHouseLocal } from '@memtrail/clickhouse-local';
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
  let server: ClickHouseLocal;
  let dataDir: string;
  let client: ClickHouseClient;
  let n = 0;
  const freshDatabase = () => `migrate_test_${++n}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'memtrail-ch-migrate-'));
    server = await startClickHouseLocal({ dataDir, port: 0 });
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

  it('creates the versioned tables with the expected columns and keys', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database });
    const columns = async (table: string) =>
      (
        await query<{ name: string }>(
          'SELECT name FROM system.columns WHERE database = {db:String} AND table = {t:String} ORDER BY position',
          { db: database, t: table },
        )
      ).map((c) => c.name);

    expect(await columns('symbols_v1')).toEqual([
      'project_id',
      'target_id',
      'report_id',
      'commit_sha',
      'commit_time',
      'symbol_index',
      'name',
      'full_name',
      'address',
      'size',
      'type',
      'binding',
      'visibility',
      'section',
      'region',
      'source_file',
      'source_line',
      'archive',
      'object_file',
      'ingest_version',
      // 0004: insert-time hashes for two-report diffs.
      'name_hash',
      'origin_hash',
    ]);
    expect(await columns('sections_v1')).toEqual(
      expect.arrayContaining([
        'project_id',
        'target_id',
        'report_id',
        'commit_time',
        'region',
        'name',
        'address',
        'size',
        'type',
        'ingest_version',
      ]),
    );
    expect(await columns('regions_v1')).toEqual(
      expect.arrayContaining([
        'project_id',
        'target_id',
        'report_id',
        'commit_time',
        'name',
        'address',
        'limit_size',
        'used_size',
        'ingest_version',
      ]),
    );

    const tables = await query<{ name: string; engine: string; sorting_key: string }>(
      `SELECT name, engine, sorting_key FROM system.tables
       WHERE database = {db:String} AND name LIKE '%\\_v1' ORDER BY name`,
      { db: database },
    );
    expect(tables).toEqual([
      {
        name: 'file_sizes_mv_v1',
        engine: 'MaterializedView',
        sorting_key: '',
      },
      {
        name: 'file_sizes_v1',
        engine: 'SummingMergeTree',
        sorting_key: 'project_id, target_id, source_file, report_id, ingest_version',
      },
      {
        name: 'regions_v1',
        engine: 'ReplacingMergeTree',
        sorting_key: 'project_id, target_id, commit_time, report_id, name',
      },
      {
        name: 'section_bytes_mv_v1',
        engine: 'MaterializedView',
        sorting_key: '',
      },
      {
        name: 'section_bytes_v1',
        engine: 'SummingMergeTree',
        sorting_key: 'project_id, target_id, report_id, ingest_version, section, region',
      },
      {
        name: 'sections_v1',
        engine: 'ReplacingMergeTree',
        sorting_key: 'project_id, target_id, commit_time, report_id, region, name, address',
      },
      {
        name: 'symbols_v1',
        engine: 'MergeTree',
        sorting_key: 'project_id, target_id, report_id, name, address, symbol_index',
      },
    ]);

    // 0007 and 0010: merges of the symbol table and of the views' tables climb fewer levels.
    // Asked of the engine itself, so an engine that does not know the setting fails here rather
    // than in a deployment.
    const merged = await query<{ name: string; engine_full: string }>(
      `SELECT name, engine_full FROM system.tables
       WHERE database = {db:String} AND name IN ('symbols_v1', 'file_sizes_v1', 'section_bytes_v1')
       ORDER BY name`,
      { db: database },
    );
    expect(merged.map((t) => [t.name, t.engine_full.includes('merge_selector_base = 10')])).toEqual(
      [
        ['file_sizes_v1', true],
        ['section_bytes_v1', true],
        ['symbols_v1', true],
      ],
    );
    // 0008-0009: the table swapped in for the MergeTree is gone.
    expect(await columns('symbols_v1_swap')).toEqual([]);
  });

  it('honours deduplication tokens on the symbol table and keeps every version', async () => {
    const database = freshDatabase();
    await migrate({ url: server.url, database });
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      const insert = (values: object[], token: string) =>
        db.insert({
          table: 'symbols_v1',
          format: 'JSONEachRow',
          values,
          clickhouse_settings: { insert_deduplication_token: token },
        });
      await insert([symbolRow('r1', 'main', 100, 1)], 'r1:1:0');
      await insert([symbolRow('r1', 'main', 100, 1)], 'r1:1:0'); // a retried job
      await insert([symbolRow('r1', 'main', 120, 2)], 'r1:2:0'); // the report was overwritten
      await db.command({ query: 'OPTIMIZE TABLE symbols_v1 FINAL' });
      // Readers name the version; merges keep both until the worker deletes the older one.
      const all = await db.query({
        query: 'SELECT ingest_version, size FROM symbols_v1 ORDER BY ingest_version',
        format: 'JSONEachRow',
      });
      expect(await all.json()).toEqual([
        { ingest_version: 1, size: 100 },
        { ingest_version: 2, size: 120 },
      ]);
    } finally {
      await db.close();
    }
  });

  it('turns a symbol table holding rows into a MergeTree, inserts under way included', async () => {
    const database = freshDatabase();
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      await migrate({ url: server.url, database, upTo: 7 });
      for (const report of ['r1', 'r2']) {
        await db.insert({
          table: 'symbols_v1',
          format: 'JSONEachRow',
          values: [symbolRow(report, 'main', 100, 1), symbolRow(report, 'idle', 4, 1)],
        });
      }
      // An insert still running when the tables are exchanged: it lands in the former table,
      // and the migration waits for it before moving that table's rows.
      const slow = db.command({
        query: `INSERT INTO symbols_v1 (project_id, target_id, report_id, name, size, ingest_version)
                SELECT 'p', 't', 'r3', toString(number), 1, 1 FROM numbers(3)
                WHERE sleepEachRow(0.5) = 0`,
        clickhouse_settings: { max_block_size: '1' },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await migrate({ url: server.url, database });
      await slow;

      const [table] = await query<{ engine: string }>(
        `SELECT engine FROM system.tables WHERE database = {db:String} AND name = 'symbols_v1'`,
        { db: database },
      );
      expect(table!.engine).toBe('MergeTree');
      const rows = await query<{ report_id: string; n: number; size: number }>(
        `SELECT report_id, count() AS n, sum(size) AS size FROM ${database}.symbols_v1
         GROUP BY report_id ORDER BY report_id`,
      );
      expect(rows).toEqual([
        { report_id: 'r1', n: 2, size: 104 },
        { report_id: 'r2', n: 2, size: 104 },
        { report_id: 'r3', n: 3, size: 3 },
      ]);
      // The views count every report once: the moved rows are not passed to them again, and
      // an insert after the migration still is.
      await db.insert({
        table: 'symbols_v1',
        format: 'JSONEachRow',
        values: [symbolRow('r4', 'main', 7, 1)],
      });
      const files = await query<{ report_id: string; size: number; symbols: number }>(
        `SELECT report_id, sum(size) AS size, sum(symbols) AS symbols FROM ${database}.file_sizes_v1
         GROUP BY report_id ORDER BY report_id`,
      );
      expect(files).toEqual([
        { report_id: 'r1', size: 104, symbols: 2 },
        { report_id: 'r2', size: 104, symbols: 2 },
        { report_id: 'r3', size: 3, symbols: 3 },
        { report_id: 'r4', size: 7, symbols: 1 },
      ]);
      // Running 0009 again (an interrupted run is completed by the next) changes nothing.
      await db.command({ query: 'DELETE FROM schema_migrations WHERE version = 9' });
      await migrate({ url: server.url, database });
      const [count] = await query<{ n: number }>(`SELECT count() AS n FROM ${database}.symbols_v1`);
      expect(count!.n).toBe(8);
    } finally {
      await db.close();
    }
  });

  it('moves symbol history reads to the symbol_sizes projection, rows already stored included', async () => {
    const database = freshDatabase();
    const db = createClickHouse({ url: server.url, database, logLevel: ClickHouseLogLevel.OFF });
    try {
      await migrate({ url: server.url, database, upTo: 5 });
      for (const report of ['r1', 'r2']) {
        await db.insert({
          table: 'symbols_v1',
          format: 'JSONEachRow',
          values: [
            symbolRow(report, 'main', report === 'r1' ? 100 : 120, 1),
            symbolRow(report, 'idle', 4, 1),
          ],
        });
      }
      await migrate({ url: server.url, database });

      // The mutation materialising the projection on the earlier parts runs in the background.
      const projections = async () =>
        query<{ name: string; parts: number }>(
          `SELECT name, count() AS parts FROM system.projection_parts
           WHERE database = {db:String} AND table = 'symbols_v1' AND active GROUP BY name`,
          { db: database },
        );
      const deadline = Date.now() + 20_000;
      while (JSON.stringify(await projections()) !== '[{"name":"symbol_sizes","parts":2}]') {
        if (Date.now() > deadline) throw new Error(JSON.stringify(await projections()));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const history = `SELECT report_id, sum(size) AS size FROM symbols_v1
        WHERE project_id = 'p' AND target_id = 't' AND name = 'main'
        GROUP BY report_id, ingest_version ORDER BY report_id`;
      // Four rows read as fast from the table itself, so the projection is required here: the
      // read fails unless the projection holds every column it needs.
      const projected = { force_optimize_projection: 1 } as const;
      const plan = await db.query({
        query: `EXPLAIN ${history}`,
        format: 'TabSeparated',
        clickhouse_settings: projected,
      });
      expect(await plan.text()).toContain('ReadFromMergeTree (symbol_sizes)');
      const read = await db.query({
        query: history,
        format: 'JSONEachRow',
        clickhouse_settings: projected,
      });
      expect(await read.json()).toEqual([
        { report_id: 'r1', size: 100 },
        { report_id: 'r2', size: 120 },
      ]);
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
      const started = Date.now();
      const next = await MigrationLock.acquire(db, { leaseMs: 5_000, timeoutMs: 10_000 });
      expect(Date.now() - started).toBeGreaterThan(300);
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
