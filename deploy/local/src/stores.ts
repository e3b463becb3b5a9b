import { startLocalClickHouse, stopLocalClickHouse } from './clickhouse.js';
import { startLocalPostgres, stopLocalPostgres } from './postgres.js';
import { startLocalRedis, stopLocalRedis } from './redis.js';
import { withStackLock } from './lock.js';

export interface Stores {
  DATABASE_URL: string;
  REDIS_URL: string;
  CLICKHOUSE_URL: string;
}

export interface StoreStatus {
  name: 'postgres' | 'redis' | 'clickhouse';
  url: string;
  source: 'external' | 'started' | 'reused';
}

/**
 * Makes the three stores available: a URL set in the environment is used as it is; otherwise the
 * embedded server is started under .data/ (or reused when already running).
 */
export async function ensureStores(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ stores: Stores; status: StoreStatus[] }> {
  const status: StoreStatus[] = [];
  const pick = async (
    name: StoreStatus['name'],
    given: string | undefined,
    start: () => Promise<{ url: string; started: boolean }>,
  ): Promise<string> => {
    if (given) {
      status.push({ name, url: given, source: 'external' });
      return given;
    }
    const { url, started } = await start();
    status.push({ name, url, source: started ? 'started' : 'reused' });
    return url;
  };
  return withStackLock(async () => {
    const stores = {
      DATABASE_URL: await pick('postgres', env.DATABASE_URL, startLocalPostgres),
      REDIS_URL: await pick('redis', env.REDIS_URL, startLocalRedis),
      CLICKHOUSE_URL: await pick('clickhouse', env.CLICKHOUSE_URL, startLocalClickHouse),
    };
    return { stores, status };
  });
}

/** Stops whichever embedded stores are running; external ones are never touched. */
export async function stopStores(): Promise<string[]> {
  return withStackLock(async () => {
    const stopped: string[] = [];
    if (await stopLocalClickHouse()) stopped.push('clickhouse');
    if (await stopLocalRedis()) stopped.push('redis');
    if (await stopLocalPostgres()) stopped.push('postgres');
    return stopped;
  });
}
