import { hostname } from 'node:os';
import { ClickHouseError, ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import { createClickHouse } from '../client.js';
import { quoteDatabaseName } from '../identifiers.js';
import type { ClickHouseTopology } from '../topology.js';
import {
  MigrationChecksumError,
  MigrationFailedError,
  UnknownAppliedMigrationError,
} from './errors.js';
import { loadMigrations, type Migration } from './files.js';
import { LOCK_TABLE_DDL, MigrationLock } from './lock.js';
import { waitForMutations, type PendingMutation } from './mutations.js';

export interface MigrateOptions {
  url: string;
  /** Created if missing; every migration runs with it as the current database. */
  database?: string;
  username?: string;
  password?: string;
  /** Defaults to the package's migrations/ folder. */
  migrationsDir?: string;
  /** Applies the migrations up to this version only: tests and benchmarks of an earlier schema. */
  upTo?: number;
  /** How long to wait for another migrator to finish (default 10 minutes). */
  lockTimeoutMs?: number;
  /** Lease of the migration lock; a crashed migrator blocks others this long (default 60 s). */
  leaseMs?: number;
  /** Where mutations run: on a cluster the migrator waits for them on every replica. */
  topology?: ClickHouseTopology;
  /** How long to wait for running mutations before a migration (default 20 minutes). */
  mutationsTimeoutMs?: number;
  /** How often to look at running mutations while waiting (default 2 s). */
  mutationsPollMs?: number;
  /** Called as each migration starts and finishes (the CLI prints these). */
  onEvent?: (event: MigrationEvent) => void;
}

export type MigrationEvent =
  | { type: 'waiting'; file: string; mutations: PendingMutation[] }
  | { type: 'applying'; file: string }
  | { type: 'applied'; file: string; durationMs: number };

export interface AppliedMigration {
  version: number;
  name: string;
  file: string;
  durationMs: number;
}

export interface MigrateResult {
  database: string;
  /** Migrations this run applied, in order. */
  applied: AppliedMigration[];
  /** Migrations that were already in place. */
  alreadyApplied: number;
}

export const MIGRATIONS_TABLE = 'schema_migrations';

const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}
(
    version UInt32,
    name String,
    checksum String,
    applied_at DateTime64(3, 'UTC') DEFAULT now64(3),
    duration_ms UInt64,
    applied_by String
)
ENGINE = MergeTree
ORDER BY version`;

/** Error types meaning a concurrent migrator created the object first. */
const ALREADY_EXISTS = new Set(['DATABASE_ALREADY_EXISTS', 'TABLE_ALREADY_EXISTS']);

/**
 * Applies every pending migration, one migrator at a time (see MigrationLock),
 * after checking that already-applied files are unchanged.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const database = options.database ?? 'memtrail';
  const quoted = quoteDatabaseName(database);
  const leaseMs = options.leaseMs ?? 60_000;
  if (!(leaseMs >= 1_000 && leaseMs <= 3_600_000)) {
    throw new Error(`leaseMs must be between 1 s and 1 h, got ${leaseMs}`);
  }
  // Read the files first: a broken migrations folder fails before the database is touched.
  const migrations = (await loadMigrations(options.migrationsDir, options.topology)).filter(
    (m) => options.upTo === undefined || m.version <= options.upTo,
  );

  // Failures are rethrown with context, so the client's own error log would only repeat them.
  const credentials = {
    logLevel: ClickHouseLogLevel.OFF,
    ...(options.username === undefined ? {} : { username: options.username }),
    ...(options.password === undefined ? {} : { password: options.password }),
  };
  const admin = createClickHouse({ url: options.url, ...credentials });
  try {
    await tolerateConcurrentCreate(() =>
      admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${quoted}` }),
    );
  } catch (err) {
    throw withContext(err, `Cannot create the ClickHouse database ${database} at ${options.url}`);
  } finally {
    await admin.close();
  }

  const client = createClickHouse({ url: options.url, database, ...credentials });
  try {
    await tolerateConcurrentCreate(() => client.command({ query: MIGRATIONS_TABLE_DDL }));
    await tolerateConcurrentCreate(() => client.command({ query: LOCK_TABLE_DDL }));
    const lock = await MigrationLock.acquire(client, {
      leaseMs,
      timeoutMs: options.lockTimeoutMs ?? 600_000,
    });
    try {
      return await applyPending(client, database, migrations, lock, options);
    } finally {
      await lock.release();
    }
  } finally {
    await client.close();
  }
}

async function applyPending(
  client: ClickHouseClient,
  database: string,
  migrations: Migration[],
  lock: MigrationLock,
  options: MigrateOptions,
): Promise<MigrateResult> {
  const { onEvent } = options;
  // Read under the lock: whatever another migrator applied before is visible now.
  const result = await client.query({
    query: `SELECT version, name, checksum FROM ${MIGRATIONS_TABLE} ORDER BY version`,
    format: 'JSONEachRow',
  });
  const applied = new Map<number, { name: string; checksum: string }>();
  for (const row of await result.json<{ version: number; name: string; checksum: string }>()) {
    if (!applied.has(row.version)) applied.set(row.version, row);
  }
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  for (const [version, row] of applied) {
    const file = byVersion.get(version);
    if (!file) throw new UnknownAppliedMigrationError(version, row.name);
    if (file.checksum !== row.checksum) {
      throw new MigrationChecksumError(version, file.file, row.checksum, file.checksum);
    }
  }

  const done: AppliedMigration[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await waitForMutations(client, database, {
      topology: options.topology ?? 'single',
      timeoutMs: options.mutationsTimeoutMs ?? 1_200_000,
      pollMs: options.mutationsPollMs ?? 2_000,
      onWaiting: (mutations) => onEvent?.({ type: 'waiting', file: migration.file, mutations }),
    });
    lock.assertHeld();
    onEvent?.({ type: 'applying', file: migration.file });
    const started = Date.now();
    for (const [index, statement] of migration.statements.entries()) {
      try {
        await client.command({ query: statement });
      } catch (err) {
        throw new MigrationFailedError(migration.file, index, err);
      }
    }
    const durationMs = Date.now() - started;
    lock.assertHeld();
    await client.insert({
      table: MIGRATIONS_TABLE,
      format: 'JSONEachRow',
      values: [
        {
          version: migration.version,
          name: migration.name,
          checksum: migration.checksum,
          duration_ms: durationMs,
          applied_by: `${hostname()}:${process.pid}`,
        },
      ],
      clickhouse_settings: { async_insert: 0 },
    });
    onEvent?.({ type: 'applied', file: migration.file, durationMs });
    done.push({
      version: migration.version,
      name: migration.name,
      file: migration.file,
      durationMs,
    });
  }
  return { database, applied: done, alreadyApplied: applied.size };
}

async function tolerateConcurrentCreate(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (err) {
    if (err instanceof ClickHouseError && ALREADY_EXISTS.has(err.type ?? '')) return;
    throw err;
  }
}

function withContext(err: unknown, context: string): Error {
  return new Error(`${context}: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
