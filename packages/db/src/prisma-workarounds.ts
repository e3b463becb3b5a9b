// Every workaround the Prisma 6.19 CLI needs to run without native engines, in one place.
//
// The CLI (generate, migrate dev/diff/status, see prisma.config.ts) runs with `engine: 'js'`:
// the schema engine is a WASM module shipped inside the `prisma` package, and every database
// round trip goes through the `@prisma/adapter-pg` driver adapter (node-postgres). Nothing is
// downloaded from binaries.prisma.sh, which these machines cannot reach. That mode has gaps; each
// gap is patched here, numbered, so that a Prisma upgrade can be checked item by item
// (test/workarounds.test.ts shows, for each, that the stock setup still fails without it):
//
//   W1  Result columns of type `name`, `"char"` and `name[]` are rejected       (prisma/orm#27403)
//   W2  The shadow database is created in the main database's place and never dropped
//   W3  Migration scripts are split on every `;`
//   W4  The CLI downloads the Rust library engine when DATABASE_URL is unset
//   W5  Idle connections and 10 s timers of the WASM schema engine keep the CLI alive
//   W6  `migrate dev` fails after applying pending migrations itself
//   W7  `migrate dev --create-only` writes the migration, then crashes
//
// W1–W3 live in the driver adapter below and W4–W5 in prepareCliEnvironment(), both used by
// prisma.config.ts only. W6 and W7 are CLI bugs we cannot patch from here; the package scripts
// route around them (see the notes at the end of this file and README.md).
//
// The application needs none of them: its Prisma client (createPrismaClient) runs model queries
// on the stock adapter, which never meet the catalogue types of W1, and its hand-written SQL
// goes through SqlPool. Applying migrations in deployments does not use the Prisma CLI at all
// (see migrate.ts).

import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

type DriverAdapter = Awaited<ReturnType<PrismaPg['connect']>>;

export interface PgAdapterOptions {
  /** Connections in the pool (node-postgres `max`). */
  poolSize?: number;
  /** Close a connection idle for this long (node-postgres default: 10 s). */
  idleTimeoutMillis?: number;
  /** Give up acquiring a connection after this long instead of waiting forever. */
  connectionTimeoutMillis?: number;
  /** Let the process exit while connections are idle in the pool (the CLI sets it, see W5). */
  allowExitOnIdle?: boolean;
  /** Existing database to use as shadow database instead of a temporary one (see W2). */
  shadowDatabaseUrl?: string;
}

// ---------------------------------------------------------------------------------------------
// W1 — prisma/orm#27403: unsupported column types in query results.
//
// The adapter maps every result column's type OID to a Prisma column type and throws
// "Unsupported column type" / "Column type 'name' could not be deserialized" for `"char"` (OID 18),
// `name` (19) and `name[]` (1003). The schema engine's introspection queries select exactly those
// from pg_catalog, so every migrate command fails on its first query. All three are text on the
// wire, so they are relabelled as `text` (25) and `text[]` (1009) before the adapter looks.
// node-postgres has no
// array parser for 1003, nor for `"char"[]` (1002, which the adapter does accept), so those
// values arrive as the literal "{a,b}" and are parsed into arrays here.
//
// `"char"` needs one more step: the schema engine reads pg_constraint.contype with a
// char-typed getter and panics ("RuntimeError: unreachable") on a text value, so every migrate
// command crashes once the database has a CHECK or EXCLUDE constraint. After the adapter has
// built its column types, `"char"` columns are set to the adapter's own Character type.
// ---------------------------------------------------------------------------------------------

const OID_CHAR = 18;
const OID_NAME = 19;
const OID_TEXT = 25;
const OID_CHAR_ARRAY = 1002;
const OID_NAME_ARRAY = 1003;
const OID_TEXT_ARRAY = 1009;

// pg's typings only list scalar OIDs; the text[] parser is registered all the same.
const getTypeParser = pg.types.getTypeParser as (oid: number) => (value: string) => unknown;
const parseTextArray = getTypeParser(OID_TEXT_ARRAY) as (value: string) => string[];

type ResultSet = Awaited<ReturnType<DriverAdapter['queryRaw']>>;
type ColumnType = ResultSet['columnTypes'][number];
/** ColumnTypeEnum.Character of @prisma/driver-adapter-utils. */
const COLUMN_TYPE_CHARACTER = 6 as ColumnType;

/** Positions of `"char"` columns, keyed by the rows array the adapter passes on unchanged. */
const charColumnsOf = new WeakMap<object, number[]>();

interface ResultLike {
  fields?: { dataTypeID: number }[];
  rows?: unknown[];
}

/** Relabels W1 column types in place. */
function remapUnsupportedColumnTypes(result: unknown): void {
  const { fields, rows } = (result ?? {}) as ResultLike;
  if (!Array.isArray(fields)) return;
  const charColumns: number[] = [];
  fields.forEach((field, index) => {
    if (field.dataTypeID === OID_CHAR) {
      field.dataTypeID = OID_TEXT;
      charColumns.push(index);
    } else if (field.dataTypeID === OID_NAME) {
      field.dataTypeID = OID_TEXT;
    } else if (field.dataTypeID === OID_NAME_ARRAY || field.dataTypeID === OID_CHAR_ARRAY) {
      if (field.dataTypeID === OID_NAME_ARRAY) field.dataTypeID = OID_TEXT_ARRAY;
      for (const row of rows ?? []) parseArrayCell(row, index);
    }
  });
  if (charColumns.length > 0 && Array.isArray(rows)) charColumnsOf.set(rows, charColumns);
}

/** The adapter reads rows as arrays (rowMode 'array'). */
function parseArrayCell(row: unknown, index: number): void {
  if (Array.isArray(row) && typeof row[index] === 'string') {
    row[index] = parseTextArray(row[index]);
  }
}

type Queryable = Pick<DriverAdapter, 'queryRaw'>;

/** Restores the Character type of `"char"` columns in queryRaw results (second half of W1). */
function typeCharColumns<T extends Queryable>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumnsOf.get(result.rows) ?? []) {
      result.columnTypes[index] = COLUMN_TYPE_CHARACTER;
    }
    return result;
  };
  return queryable;
}

function typeCharColumnsEverywhere(adapter: DriverAdapter): DriverAdapter {
  typeCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) =>
    typeCharColumns(await startTransaction(isolationLevel));
  return adapter;
}

type QueryFunction = (...args: unknown[]) => unknown;

/**
 * Wraps `client.query` so that every result passes through remapUnsupportedColumnTypes. The
 * adapter calls it both with a callback (through pool.query) and as a promise (inside
 * transactions); submittables such as cursors are passed through untouched.
 */
function remapResultsOf(client: pg.PoolClient): void {
  const original = client.query.bind(client) as QueryFunction;
  const patched: QueryFunction = (...args) => {
    const callback = args[args.length - 1];
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) => {
        if (!error) remapUnsupportedColumnTypes(result);
        return (callback as (e: unknown, r: unknown) => unknown)(error, result);
      };
      return original(...args);
    }
    const returned = original(...args);
    if (returned instanceof Promise) {
      return returned.then((result: unknown) => {
        remapUnsupportedColumnTypes(result);
        return result;
      });
    }
    return returned;
  };
  (client as unknown as { query: QueryFunction }).query = patched;
}

/** A node-postgres pool whose connections apply W1. */
function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('connect', remapResultsOf);
  return pool;
}

// ---------------------------------------------------------------------------------------------
// W3 — executeScript splits on every `;`.
//
// The adapter runs migration scripts by splitting them on ';' and sending the pieces one by one.
// That breaks any statement with a semicolon inside (function bodies, DO blocks, string literals,
// comments) and leaves a half-applied migration when a later piece fails. PostgreSQL's simple
// query protocol accepts the whole script at once and runs it as one implicit transaction, which
// is what the native schema engine does; we send it whole.
// ---------------------------------------------------------------------------------------------

function runScriptsWhole(adapter: DriverAdapter, pool: pg.Pool): DriverAdapter {
  adapter.executeScript = async (script: string): Promise<void> => {
    try {
      await pool.query(script);
    } catch (error) {
      // Rethrow through the adapter so Prisma receives the error kind and code it expects.
      (adapter as unknown as { onError(e: unknown): never }).onError(error);
    }
  };
  return adapter;
}

// ---------------------------------------------------------------------------------------------
// W2 — shadow database handling.
//
// `migrate dev` replays all migrations on a scratch "shadow" database to detect drift. The
// adapter's connectToShadowDb() creates `prisma_migrate_shadow_db_<uuid>` and then connects with
// `{ ...config, database }`; but node-postgres lets `connectionString` override `database`, so
// with a URL config the "shadow" connection lands on the MAIN database, which migrate dev may then
// reset. Its cleanup also drops the database before closing the pool (that would fail as soon as
// the pool really were connected to it) and never closes the connection it created it with. We
// create the database ourselves,
// point the pool at it by rewriting the URL, and on dispose close the pool first, then drop the
// database (WITH (FORCE), PostgreSQL 13+) and close the admin connection. SHADOW_DATABASE_URL
// selects an existing database instead, for servers where the user may not CREATE DATABASE.
// ---------------------------------------------------------------------------------------------

function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The driver adapter factory for PostgreSQL with W1–W3 applied. Prisma calls connect() for
 * queries and migrations and connectToShadowDb() for `migrate dev`.
 */
export class MemtrailPgAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';

  constructor(
    private readonly databaseUrl: string,
    private readonly options: PgAdapterOptions = {},
  ) {}

  private poolConfig(connectionString: string): pg.PoolConfig {
    const { poolSize, idleTimeoutMillis, connectionTimeoutMillis, allowExitOnIdle } = this.options;
    return {
      connectionString,
      ...(allowExitOnIdle !== undefined && { allowExitOnIdle }),
      ...(poolSize !== undefined && { max: poolSize }),
      ...(idleTimeoutMillis !== undefined && { idleTimeoutMillis }),
      ...(connectionTimeoutMillis !== undefined && { connectionTimeoutMillis }),
    };
  }

  private async open(connectionString: string, afterDispose?: () => Promise<void>) {
    const pool = createPool(this.poolConfig(connectionString));
    // disposeExternalPool: the adapter owns the pool and ends it on dispose().
    const adapter = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
    if (afterDispose) {
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        try {
          await dispose();
        } finally {
          await afterDispose();
        }
      };
    }
    return typeCharColumnsEverywhere(runScriptsWhole(adapter, pool));
  }

  connect(): Promise<DriverAdapter> {
    return this.open(this.databaseUrl);
  }

  async connectToShadowDb(): Promise<DriverAdapter> {
    if (this.options.shadowDatabaseUrl) return this.open(this.options.shadowDatabaseUrl);

    const name = `prisma_migrate_shadow_db_${crypto.randomUUID()}`;
    const admin = new pg.Client({ connectionString: this.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    } catch (error) {
      await admin.end();
      throw new Error(
        `Cannot create the shadow database ${name} for prisma migrate dev ` +
          `(set SHADOW_DATABASE_URL to an existing empty database instead): ${String(error)}`,
        { cause: error },
      );
    }
    return this.open(withDatabase(this.databaseUrl, name), async () => {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// W4 and W5 — CLI only; prisma.config.ts calls prepareCliEnvironment() when the CLI loads it.
// ---------------------------------------------------------------------------------------------

/** Stands in for DATABASE_URL while the CLI reads the schema; never connected to. */
export const PLACEHOLDER_DATABASE_URL = 'postgresql://placeholder@localhost:5432/not-connected';

/** Timers at least this long that the CLI starts are unref'd (W5). */
export const CLI_LONG_TIMER_MS = 5_000;

export interface CliEnvironment {
  /** The real DATABASE_URL, or undefined when the caller did not set one. */
  databaseUrl: string | undefined;
  shadowDatabaseUrl: string | undefined;
}

/**
 * W4 — Prisma 6.19 insists on a `url` in the schema's datasource block even when a driver
 * adapter does all the connecting (it then warns that the url is not used: expected). When the
 * block has no url, or the `env("DATABASE_URL")` it names is unset, the CLI cannot read the
 * schema, assumes the Rust library engine and downloads it from binaries.prisma.sh at start-up,
 * so even `prisma generate` fails offline on a build machine without a database. A placeholder
 * fills DATABASE_URL while the CLI reads the schema. It is never connected to: the adapter gets
 * the caller's value and refuses to start without one (requireDatabaseUrl).
 *
 * W5 — After a migrate command has printed its result the process lingers for about 10 s
 * (measured on 6.19.3: `migrate deploy` 3 s with this, 12–13 s without; docs/benchmarks.md):
 *   - the CLI never disposes the adapter it opened, and node-postgres keeps idle connections
 *     open for idleTimeoutMillis (10 s). The CLI's pools set allowExitOnIdle instead (see
 *     prisma.config.ts); a shorter idle timeout would be wrong, since the schema engine holds its
 *     migration advisory lock on that connection until it closes;
 *   - the WASM schema engine starts 10 s setTimeout()s (timeouts raced against database calls)
 *     and never clears them (its glue imports no clearTimeout at all). The glue calls the global
 *     setTimeout at call time, so long timers created in this process are unref'd: they still
 *     fire if the process is alive for other reasons (a query in flight), they just no longer
 *     keep it alive on their own. Only the CLI process loads this (through prisma.config.ts).
 */
export function prepareCliEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (!databaseUrl) env.DATABASE_URL = PLACEHOLDER_DATABASE_URL;
  unrefLongTimers();
  return { databaseUrl, shadowDatabaseUrl: env.SHADOW_DATABASE_URL || undefined };
}

let timersPatched = false;

function unrefLongTimers(): void {
  if (timersPatched) return;
  timersPatched = true;
  const original = globalThis.setTimeout;
  const patched = (...args: Parameters<typeof setTimeout>) => {
    const timer = original(...args);
    if (Number(args[1] ?? 0) >= CLI_LONG_TIMER_MS) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(patched, original) as typeof setTimeout;
}

export function requireDatabaseUrl(databaseUrl: string | undefined, what: string): string {
  if (!databaseUrl) {
    throw new Error(
      `${what} needs DATABASE_URL, e.g. postgres://user:password@localhost:5432/memtrail`,
    );
  }
  return databaseUrl;
}

// ---------------------------------------------------------------------------------------------
// W6 — `prisma migrate dev` on a database with pending migrations applies them, then fails in
// its next step with "PostgreSQL shadow DB must be provided through an external factory" (the
// WASM engine's data-loss check does not receive the shadow database factory in that path).
// Nothing is lost, and a second run passes. `npm run migrate:dev` therefore runs
// `prisma migrate deploy` first, so `migrate dev` only ever sees an up-to-date database.
//
// W7 — `prisma migrate dev --create-only` writes the migration file, then frees the WASM engine
// twice and exits 1 with "null pointer passed to rust". `npm run migrate:create` creates the file
// with `prisma migrate diff --from-migrations … --to-schema-datamodel … --script` instead, which
// replays the migrations on a shadow database (W2) and prints the SQL still missing.
// ---------------------------------------------------------------------------------------------
