import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import {
  PRISMA_MIGRATE_LOCK_KEY,
  migrateDeploy,
  readMigrations,
  type MigrateResult,
} from '../src/index.js';
import { createTempDatabase, withClient, type TempDatabase } from './database.js';
import { prisma } from './prisma-cli.js';

const databases: TempDatabase[] = [];
async function freshDatabase(): Promise<TempDatabase> {
  const database = await createTempDatabase();
  databases.push(database);
  return database;
}
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

async function tableNames(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' ORDER BY table_name`,
    );
    return rows.map((row) => row.table_name);
  });
}

describe('migrateDeploy', () => {
  it('applies every migration to an empty database, then has nothing left to do', async () => {
    const database = await freshDatabase();
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);

    const lines: string[] = [];
    const first = await migrateDeploy(database.url, { log: (line) => lines.push(line) });
    expect(first.applied).toEqual(migrations.map((migration) => migration.name));
    expect(first.alreadyApplied).toEqual([]);
    expect(lines).toContain(`applying ${migrations[0]!.name}`);
    expect(await tableNames(database.url)).toEqual(
      expect.arrayContaining(['users', 'projects', 'targets', 'commits', 'reports', 'heads']),
    );

    const second = await migrateDeploy(database.url);
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied, unknown: [] });

    // Bookkeeping exactly as Prisma keeps it: one finished row per migration, file checksum.
    const rows = await withClient(database.url, async (client) => {
      const result = await client.query<{ migration_name: string; checksum: string }>(
        `SELECT migration_name, checksum FROM _prisma_migrations
          WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
      );
      return result.rows;
    });
    expect(rows).toEqual(
      migrations.map((migration) => ({
        migration_name: migration.name,
        checksum: migration.checksum,
      })),
    );
  });

  it('lets concurrent runs queue on the advisory lock; the migrations are applied once', async () => {
    const database = await freshDatabase();
    const results = await Promise.all(Array.from({ length: 4 }, () => migrateDeploy(database.url)));
    const names = (await readMigrations()).map((migration) => migration.name);
    const appliers = results.filter((result: MigrateResult) => result.applied.length > 0);
    expect(appliers).toHaveLength(1);
    expect(appliers[0]!.applied).toEqual(names);
    for (const result of results.filter((result) => result.applied.length === 0)) {
      expect(result.alreadyApplied).toEqual(names);
    }
    const count = await withClient(database.url, (client) =>
      client.query<{ n: string }>('SELECT count(*) AS n FROM _prisma_migrations'),
    );
    expect(Number(count.rows[0]!.n)).toBe(names.length);
  });

  it('waits while another session holds the Prisma migration lock', async () => {
    const database = await freshDatabase();
    await withClient(database.url, async (holder) => {
      await holder.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
      let finished = false;
      const run = migrateDeploy(database.url).then((result) => {
        finished = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(finished).toBe(false);
      await holder.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
      expect((await run).applied.length).toBeGreaterThan(0);
    });
  });

  it('agrees with the Prisma CLI in both directions, also when both run at once', async () => {
    // Ours first: `prisma migrate status` sees an up-to-date database.
    const ours = await freshDatabase();
    await migrateDeploy(ours.url);
    const status = await prisma(['migrate', 'status'], ours.url);
    expect(status.output).toContain('Database schema is up to date');
    expect(status.code).toBe(0);

    // Prisma's first: our runner finds nothing to do.
    const theirs = await freshDatabase();
    const deploy = await prisma(['migrate', 'deploy'], theirs.url);
    expect(deploy.code).toBe(0);
    expect((await migrateDeploy(theirs.url)).applied).toEqual([]);

    // Both at once on an empty database: the shared lock serialises them.
    const both = await freshDatabase();
    const [cli, runner] = await Promise.all([
      prisma(['migrate', 'deploy'], both.url),
      migrateDeploy(both.url),
    ]);
    expect(cli.code).toBe(0);
    const rows = await withClient(both.url, (client) =>
      client.query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL',
      ),
    );
    expect(rows.rows.map((row) => row.migration_name).sort()).toEqual(
      [...runner.applied, ...runner.alreadyApplied].sort(),
    );
  });

  it('matches schema.prisma: prisma migrate diff via a shadow database finds nothing', async () => {
    // Also the offline authoring path end to end: the WASM schema engine replays the migrations
    // (with their CHECK constraint, W1) on a temporary shadow database (W2; its removal is
    // checked in workarounds.test.ts) and exits on its own (W5, also in workarounds.test.ts).
    const database = await freshDatabase();
    const diff = await prisma(
      [
        'migrate',
        'diff',
        '--from-migrations',
        'prisma/migrations',
        '--to-schema-datamodel',
        'prisma/schema.prisma',
        '--exit-code',
      ],
      database.url,
    );
    expect(diff.output).toContain('No difference detected');
    expect(diff.code).toBe(0);
  });

  it('rolls a failing migration back completely and reports which one failed', async () => {
    const database = await freshDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'memtrail-migrations-'));
    try {
      await mkdir(join(dir, '001_good'));
      await writeFile(join(dir, '001_good', 'migration.sql'), 'CREATE TABLE good (id int);');
      await mkdir(join(dir, '002_bad'));
      // Semicolons inside a string and a DO block: the file must reach the server whole.
      await writeFile(
        join(dir, '002_bad', 'migration.sql'),
        `CREATE TABLE half (note text DEFAULT 'a;b');
         DO $$ BEGIN PERFORM 1; END $$;
         SELECT * FROM missing_table;`,
      );

      await expect(migrateDeploy(database.url, { migrationsDir: dir })).rejects.toThrow(
        /Migration 002_bad failed and was rolled back: relation "missing_table" does not exist/,
      );
      expect(await tableNames(database.url)).toEqual(['_prisma_migrations', 'good']);

      // Fixed, the next run applies it.
      await writeFile(join(dir, '002_bad', 'migration.sql'), 'CREATE TABLE half (id int);');
      const result = await migrateDeploy(database.url, { migrationsDir: dir });
      expect(result.applied).toEqual(['002_bad']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to continue after a migration the CLI left unfinished', async () => {
    const database = await freshDatabase();
    await migrateDeploy(database.url);
    await withClient(database.url, (client) =>
      client.query(
        `INSERT INTO _prisma_migrations (id, checksum, migration_name)
         VALUES (gen_random_uuid()::text, 'x', '99999999999999_half_done')`,
      ),
    );
    await expect(migrateDeploy(database.url)).rejects.toThrow(
      /99999999999999_half_done was started at .* and never finished.*prisma migrate resolve/,
    );
  });

  it('reports an unreachable database with its address', async () => {
    await expect(migrateDeploy('postgres://nobody@127.0.0.1:1/none')).rejects.toThrow(
      /Cannot connect to 127\.0\.0\.1:1\/none: .*ECONNREFUSED/,
    );
  });
});
