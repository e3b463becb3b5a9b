// Applies prisma/migrations/*/migration.sql to a database, without the Prisma CLI.
//
// Deployments (the compose migrator, the Kubernetes Job, the local stack) run this instead of
// `prisma migrate deploy`: it needs neither the WASM schema engine nor the TypeScript config the
// CLI loads, only the SQL files and node-postgres. It stays interchangeable with the CLI:
//   - it records migrations in Prisma's `_prisma_migrations` table, with the same checksum
//     (SHA-256 of the file), so `prisma migrate status` / `migrate dev` see them as applied;
//   - it takes the same session advisory lock as Prisma's schema engine, so this runner and the
//     CLI, and any number of copies of either, exclude each other while they migrate.
// Unlike the CLI, each migration runs in a transaction together with its bookkeeping row: a
// failing migration leaves nothing behind and the next run retries it. Statements that cannot run
// in a transaction (CREATE INDEX CONCURRENTLY) therefore need a migration applied by other means.

import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The advisory lock key Prisma's schema engine uses for migrations on PostgreSQL. */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** prisma/migrations of this package, from src/ (tests) or dist/ (built). */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(
  new URL('../prisma/migrations', import.meta.url),
);

// The table as Prisma's schema engine creates it, so either may create it first.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  /** Directory name, e.g. 20261121104440_init; migrations apply in name order. */
  name: string;
  sql: string;
  /** Hex SHA-256 of migration.sql, as Prisma computes it. */
  checksum: string;
}

export interface MigrateOptions {
  migrationsDir?: string;
  /** Progress lines (what is applied, warnings). Default: silent. */
  log?: (line: string) => void;
}

export interface MigrateResult {
  /** Migrations this run applied, in order. */
  applied: string[];
  /** Migrations that were already applied before this run. */
  alreadyApplied: string[];
  /** Migrations recorded in the database but absent here (a newer release migrated it). */
  unknown: string[];
}

export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new Error(`Cannot read the migrations directory ${dir}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    let sql: string;
    try {
      sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
    } catch (error) {
      throw new Error(`Migration ${name} has no readable migration.sql: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    migrations.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies every migration not yet recorded as finished. Safe to run concurrently: callers queue
 * on the advisory lock, and each sees what the previous one applied.
 */
export async function migrateDeploy(
  databaseUrl: string,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  if (!databaseUrl) throw new Error('migrateDeploy: databaseUrl is empty');
  const log = options.log ?? (() => {});
  const migrations = await readMigrations(options.migrationsDir);

  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot connect to ${describeDatabase(databaseUrl)}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  // A dropped connection would otherwise surface as an unhandled 'error' event.
  client.on('error', (error) => log(`database connection error: ${error.message}`));
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      return await applyPending(client, migrations, log);
    } finally {
      // Closing the session releases the lock anyway; a failed unlock must not hide the error.
      await client
        .query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY])
        .catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

async function applyPending(
  client: pg.Client,
  migrations: Migration[],
  log: (line: string) => void,
): Promise<MigrateResult> {
  await client.query(CREATE_MIGRATIONS_TABLE);
  const { rows } = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, started_at, finished_at, rolled_back_at
       FROM _prisma_migrations ORDER BY started_at`,
  );

  // A migration the Prisma CLI started and did not finish left the schema in an unknown state;
  // like `prisma migrate deploy`, refuse to go on until someone has looked at it.
  const broken = rows.find((row) => row.finished_at === null && row.rolled_back_at === null);
  if (broken) {
    throw new Error(
      `Migration ${broken.migration_name} was started at ${broken.started_at.toISOString()} ` +
        'and never finished. Repair the database, then record the outcome with ' +
        '`npx prisma migrate resolve --applied|--rolled-back <name>` in packages/db.',
    );
  }

  const finished = new Map(
    rows.filter((row) => row.finished_at !== null).map((row) => [row.migration_name, row]),
  );
  const local = new Set(migrations.map((migration) => migration.name));
  const result: MigrateResult = {
    applied: [],
    alreadyApplied: [],
    unknown: [...finished.keys()].filter((name) => !local.has(name)),
  };
  for (const name of result.unknown) {
    log(`warning: ${name} is applied in the database but not known to this release`);
  }

  for (const migration of migrations) {
    const row = finished.get(migration.name);
    if (row) {
      if (row.checksum !== migration.checksum) {
        log(`warning: ${migration.name} was modified after it was applied (checksum differs)`);
      }
      result.alreadyApplied.push(migration.name);
      continue;
    }
    log(`applying ${migration.name}`);
    await applyOne(client, migration);
    result.applied.push(migration.name);
  }
  return result;
}

async function applyOne(client: pg.Client, migration: Migration): Promise<void> {
  const startedAt = new Date();
  await client.query('BEGIN');
  try {
    // No parameters: the simple query protocol runs the whole multi-statement file.
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO _prisma_migrations
         (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ($1, $2, $3, $4, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name, startedAt],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw new Error(`Migration ${migration.name} failed and was rolled back: ${describe(error)}`, {
      cause: error,
    });
  }
}

function describe(error: unknown): string {
  if (error instanceof pg.DatabaseError) {
    const where = error.position ? ` at character ${error.position}` : '';
    return `${error.message} (SQLSTATE ${error.code}${where})`;
  }
  return errorMessage(error);
}

/** Node reports a refused connection to a name with several addresses as an AggregateError. */
function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return error.errors.map(errorMessage).join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** host:port/database of a URL, without credentials, for messages. */
export function describeDatabase(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return 'the database (DATABASE_URL is not a valid URL)';
  }
}
