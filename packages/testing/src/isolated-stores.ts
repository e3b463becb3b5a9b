import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { migrate as migrateClickHouse, createClickHouse } from '@memtrail/clickhouse';
import { migrateDeploy } from '@memtrail/db';
import { provideBaseStores } from './base-stores.js';

/** One test file's own Postgres database, ClickHouse database and Redis key prefix. */
export interface IsolatedStores {
  /** URL of a freshly migrated Postgres database that only this test file uses. */
  databaseUrl: string;
  redisUrl: string;
  /** Prefix for every Redis key (BullMQ `prefix`), so queues never see another file's jobs. */
  queuePrefix: string;
  clickhouseUrl: string;
  /** A freshly migrated ClickHouse database that only this test file uses. */
  clickhouseDatabase: string;
  /** Drops both databases and deletes the Redis keys. */
  cleanup: () => Promise<void>;
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Creates isolated, migrated stores for one test file on the shared servers (see
 * provideBaseStores). Names are random so files can run in parallel and a crashed run never
 * collides with the next one.
 */
export async function createIsolatedStores(): Promise<IsolatedStores> {
  const base = await provideBaseStores();
  const {
    DATABASE_URL: serverUrl,
    REDIS_URL: redisUrl,
    CLICKHOUSE_URL: clickhouseUrl,
  } = base.stores;
  const name = `t_${randomBytes(6).toString('hex')}`;

  await onServer(serverUrl, `CREATE DATABASE "${name}"`);
  const databaseUrl = withDatabase(serverUrl, name);
  await migrateDeploy(databaseUrl);
  await migrateClickHouse({ url: clickhouseUrl, database: name });

  return {
    databaseUrl,
    redisUrl,
    queuePrefix: name,
    clickhouseUrl,
    clickhouseDatabase: name,
    cleanup: async () => {
      const clickhouse = createClickHouse({ url: clickhouseUrl });
      try {
        await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${name}` });
      } finally {
        await clickhouse.close();
      }
      await onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await deleteKeys(redisUrl, name);
      await base.stop();
    },
  };
}
