import 'reflect-metadata';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '@memtrail/config';
import { createLogger, NestPinoLogger } from '@memtrail/logging';
import { AppModule } from './app.module.js';
import { GatewayConfig } from './config.js';
import { serveWeb } from './web/serve-web.js';

const defaultWebDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    logger: new NestPinoLogger(logger),
  });
  app.enableShutdownHooks();
  const webDir = config.WEB_DIST_DIR ?? defaultWebDist;
  if (!serveWeb(app, webDir)) logger.warn({ webDir }, 'web app not built: only the API is served');
  await app.listen(config.PORT, config.HOST);
  logger.info(
    { port: config.PORT, host: config.HOST, mode: config.DEPLOYMENT_MODE },
    'gateway listening',
  );
}

main().catch((error: unknown) => {
  // Config errors and failed start-ups end the process with the reason on stderr.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
