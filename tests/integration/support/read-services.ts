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
  const query: INestMicroservice = await NestFactory.createMicroservice(
    QueryModule.register(
      loadConfig(QueryConfig, {
        DATABASE_URL: stores.databaseUrl,
        CLICKHOUSE_URL: stores.clickhouseUrl,
        CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
        QUERY_PORT: String(queryPort),
        QUERY_SECRET: TEST_QUERY_SECRET,
        LOG_LEVEL: 'error',
      }),
    ),
    { transport: Transport.TCP, options: { host: '127.0.0.1', port: queryPort }, logger: false },
  );
  await query.listen();
  const worker: INestApplicationContext = await NestFactory.createApplicationContext(
    WorkerModule.register(
      loadConfig(WorkerConfig, {
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        CLICKHOUSE_URL: stores.clickhouseUrl,
        CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
        QUEUE_PREFIX: stores.queuePrefix,
        SWEEP_INTERVAL_MS: '0',
        LOG_LEVEL: 'error',
      }),
    ),
    { logger: false },
  );
  await worker.init();
  return {
    queryPort,
    close: async () => {
      await worker.close();
      await query.close();
    },
  };
}
