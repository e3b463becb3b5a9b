import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.js';

export interface DbClientOptions {
  /**
   * Connections in the pool. Defaults to the URL's `connection_limit` parameter (Prisma's
   * convention), else 10.
   */
  poolSize?: number;
  /** Fail a query that waits longer than this for a free connection (default: wait). */
  connectionTimeoutMillis?: number;
  /** Close connections idle for this long (default 10 s). */
  idleTimeoutMillis?: number;
  /** Prisma client log levels, e.g. ['warn', 'error']. */
  log?: Prisma.LogLevel[];
}

export const DEFAULT_POOL_SIZE = 10;

/**
 * Splits Prisma's `connection_limit` URL parameter off: node-postgres would ignore it, and we
 * want DATABASE_URL strings written for Prisma to keep working.
 */
export function parseDatabaseUrl(databaseUrl: string): { url: string; connectionLimit?: number } {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL (expected postgres://user:pass@host/db)');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`DATABASE_URL must be a postgres:// URL, got ${parsed.protocol}//…`);
  }
  const limit = parsed.searchParams.get('connection_limit');
  if (limit === null) return { url: databaseUrl };
  parsed.searchParams.delete('connection_limit');
  const connectionLimit = Number(limit);
  if (!Number.isInteger(connectionLimit) || connectionLimit < 1) {
    throw new Error(`DATABASE_URL connection_limit must be a positive integer, got "${limit}"`);
  }
  return { url: parsed.toString(), connectionLimit };
}

/**
 * A PrismaClient talking to PostgreSQL through node-postgres (no query engine binary), for model
 * queries; hand-written SQL goes through SqlPool. The stock driver adapter suffices here: the
 * workarounds of prisma-workarounds.ts concern the CLI's schema engine. The pool is created
 * lazily on the first query; call `$disconnect()` on shutdown to close it.
 */
export function createPrismaClient(databaseUrl: string, options: DbClientOptions = {}) {
  if (!databaseUrl) throw new Error('createPrismaClient: databaseUrl is empty');
  const { url, connectionLimit } = parseDatabaseUrl(databaseUrl);
  const adapter = new PrismaPg({
    connectionString: url,
    max: options.poolSize ?? connectionLimit ?? DEFAULT_POOL_SIZE,
    ...(options.connectionTimeoutMillis !== undefined && {
      connectionTimeoutMillis: options.connectionTimeoutMillis,
    }),
    ...(options.idleTimeoutMillis !== undefined && {
      idleTimeoutMillis: options.idleTimeoutMillis,
    }),
  });
  return new PrismaClient({ adapter, ...(options.log && { log: options.log }) });
}
