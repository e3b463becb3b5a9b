import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { loadConfig } from '@memtrail/config';
import { createLogger, NestPinoLogger } from '@memtrail/logging';
import { AppModule } from './app.module.js';
import { QueryConfig } from './config.js';

async function main(): Promise<void> {
  const config = loadConfig(QueryConfig);
  const logger = createLogger({ service: 'query', level: config.LOG_LEVEL });
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(
    AppModule.register(config),
    {
      transport: Transport.TCP,
      options: { host: config.QUERY_BIND_HOST, port: config.QUERY_PORT },
      logger: new NestPinoLogger(logger),
    },
  );
  app.enableShutdownHooks();
  await app.listen();
  logger.info({ host: config.QUERY_BIND_HOST, port: config.QUERY_PORT }, 'query service listening');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
