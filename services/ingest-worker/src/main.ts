import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { loadConfig } from '@memtrail/config';
import { SqlPool } from '@memtrail/db';
import { createLogger, exitIfShutdownStalls, NestPinoLogger } from '@memtrail/logging';
import { registerQueueMetrics, ServiceMetrics, startMetricsServer } from '@memtrail/metrics';
import { createRedisConnection, QueueNames } from '@memtrail/queue';
import { AppModule } from './app.module.js';
import { WorkerConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(WorkerConfig);
  const logger = createLogger({ service: 'ingest-worker', level: config.LOG_LEVEL });
  // No HTTP server: the worker's only input is the queue.
  const app = await NestFactory.createApplicationContext(AppModule.register(config), {
    logger: new NestPinoLogger(logger),
  });
  app.enableShutdownHooks();
  exitIfShutdownStalls(config.SHUTDOWN_TIMEOUT_S, logger);
  await app.init();
  // Probes and Prometheus use a side port: queue depth and age, job and insert timings.
  if (config.METRICS_PORT > 0) {
    const metrics = app.get(ServiceMetrics);
    const redis = createRedisConnection(config.REDIS_URL);
    const queues = Object.values(QueueNames).map(
      (name) => new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX }),
    );
    registerQueueMetrics(metrics, queues);
    const sql = app.get(SqlPool);
    const clickhouse = app.get(ClickHouseClient);
    const server = await startMetricsServer({
      metrics,
      port: config.METRICS_PORT,
      host: config.METRICS_HOST,
      // Ready when every store a job needs answers.
      ready: async () => {
        await sql.query('SELECT 1');
        await redis.ping();
        const ping = await clickhouse.ping();
        if (!ping.success) throw new Error(`ClickHouse: ${ping.error.message}`);
      },
    });
    process.once('SIGTERM', () => {
      void Promise.allSettled([server.close(), ...queues.map((q) => q.close())]).then(() =>
        redis.quit(),
      );
    });
  }
  logger.info(
    { concurrency: config.WORKER_CONCURRENCY, metricsPort: config.METRICS_PORT },
    'ingest worker started',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
