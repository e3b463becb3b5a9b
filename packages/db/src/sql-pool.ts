import pg from 'pg';
import { DEFAULT_POOL_SIZE, parseDatabaseUrl } from './client.js';

/**
 * A plain node-postgres pool for the few hot paths that run on every upload. Through Prisma's
 * WASM query compiler a single query costs several milliseconds of CPU (measured: ~10 ms for a
 * primary-key lookup, ~15 ms for an update carrying a 230 KB bytea, against ~0.3 ms and ~1.4 ms
 * here), and those paths run dozens of times a second. Everything else stays on Prisma.
 */
export class SqlPool extends pg.Pool {}

export type SqlClient = pg.PoolClient;

export interface SqlPoolOptions {
  /** Connections in the pool; defaults to the URL's `connection_limit`, else 10. */
  poolSize?: number;
  /** Told when an idle connection fails (default: a line on stderr). */
  onIdleError?: (error: Error) => void;
}

export function createSqlPool(databaseUrl: string, options: SqlPoolOptions = {}): SqlPool {
  const { url, connectionLimit } = parseDatabaseUrl(databaseUrl);
  const pool = new SqlPool({
    connectionString: url,
    max: options.poolSize ?? connectionLimit ?? DEFAULT_POOL_SIZE,
  });
  // An idle connection that dies (Postgres restarted, the connection terminated) is dropped by
  // the pool and the next query opens another; unheard, the pool's 'error' event would end the
  // process.
  pool.on(
    'error',
    options.onIdleError ??
      ((error) => console.error(`Postgres: an idle pooled connection failed: ${error.message}`)),
  );
  return pool;
}

export interface TransactionOptions {
  /**
   * Taken first, held until the end (`pg_advisory_xact_lock` on the key's hash): transactions
   * with the same key run one after another.
   */
  lock?: string;
}

/** Runs `work` in one transaction on one connection: committed when it resolves, else rolled back. */
export async function inTransaction<T>(
  pool: SqlPool,
  work: (client: SqlClient) => Promise<T>,
  { lock }: TransactionOptions = {},
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    // With its lock in one round trip: two statements in one simple query, which carries no
    // parameters, so the key goes in as an escaped literal.
    await client.query(
      lock === undefined
        ? 'BEGIN'
        : `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${pg.escapeLiteral(lock)}, 0))`,
    );
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // The caller gets the error that failed the work; a connection that cannot even roll back
    // is closed instead of going back to the pool.
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
