import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Transport } from '@nestjs/microservices';
import { loadConfig } from '@memtrail/config';
import { freePort, type IsolatedStores } from '@memtrail/testing';
import { AppModule as WorkerModule } from '../../../services/ingest-worker/src/app.module.js';
import { WorkerConfig } from '../../../services/ingest-worker/src/config.js';
import { AppModule as QueryModule } from '../../../services/query/src/app.module.js';
import { QueryConfig } from '../../../services/query/src/config.js';
import { TEST_QUERY_SECRET } from '../../../services/gateway/test/support/gateway-harness.js';

/** The real query service on a test file's stores, listening on `port` (TCP, signed messages). */
export async function startQueryService(
  stores: IsolatedStores,
  port: number,
): Promise<INestMicroservice> {
  const config = loadConfig(QueryConfig, {
    DATABASE_URL: stores.databaseUrl,
    CLICKHOUSE_URL: stores.clickhouseUrl,
    CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
    QUERY_PORT: String(port),
    QUERY_SECRET: TEST_QUERY_SECRET,
    LOG_LEVEL: 'error',
  });
  const query = await NestFactory.createMicroservice(QueryModule.register(config), {
    transport: Transport.TCP,
    options: { host: '127.0.0.1', port },
    logger: false,
  });
  await query.listen();
  return query;
}

/**
 * The real ingest worker on a test file's stores, its sweeper off; `settings` add to or replace
 * its configuration (copy timings, …).
 */
export async function startIngestWorker(
  stores: IsolatedStores,
  settings: Record<string, string> = {},
): Promise<INestApplicationContext> {
  const config = loadConfig(WorkerConfig, {
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: stores.redisUrl,
    CLICKHOUSE_URL: stores.clickhouseUrl,
    CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
    QUEUE_PREFIX: stores.queuePrefix,
    SWEEP_INTERVAL_MS: '0',
    LOG_LEVEL: 'error',
    ...settings,
  });
  const worker = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    logger: false,
  });
  await worker.init();
  return worker;
}

export interface ReadServices {
  /** Give the gateway `QUERY_PORT` this. */
  queryPort: number;
  close(): Promise<void>;
}

/**
 * The real ingest worker and query service on a test file's stores, so uploads through the
 * gateway become readable through it.
 */
export async function startReadServices(stores: IsolatedStores): Promise<ReadServices> {
  const queryPort = await freePort();
  const query = await startQueryService(stores, queryPort);
  const worker = await startIngestWorker(stores);
  return {
    queryPort,
    close: async () => {
      await worker.close();
      await query.close();
    },
  };
}
