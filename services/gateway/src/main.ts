import 'reflect-metadata';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@memtrail/config';
import { createLogger, exitIfShutdownStalls, NestPinoLogger } from '@memtrail/logging';
import { ServiceMetrics, startMetricsServer } from '@memtrail/metrics';
import { GatewayConfig } from './config.js';
import { createGatewayApp } from './create-app.js';
import { serveWeb } from './web/serve-web.js';

const defaultWebDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
  const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL });
  const metrics = new ServiceMetrics('gateway');
  const app = await createGatewayApp(config, new NestPinoLogger(logger), metrics);
  app.enableShutdownHooks();
  exitIfShutdownStalls(config.SHUTDOWN_TIMEOUT_S, logger);
  const webDir = config.WEB_DIST_DIR ?? defaultWebDist;
  if (!serveWeb(app, webDir, config))
    logger.warn({ webDir }, 'web app not built: only the API is served');
  await app.listen(config.PORT, config.HOST);
  // /metrics on a side port keeps it off the public ingress.
  if (config.METRICS_PORT > 0) {
    await startMetricsServer({ metrics, port: config.METRICS_PORT, host: config.METRICS_HOST });
  }
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
