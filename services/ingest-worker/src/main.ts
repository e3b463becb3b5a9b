import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@memtrail/config';
import { createLogger, NestPinoLogger } from '@memtrail/logging';
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
  await app.init();
  logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'ingest worker started');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
