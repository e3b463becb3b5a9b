import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ServerTCP } from '@nestjs/microservices';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { loadConfig } from '@memtrail/config';
import { SqlPool } from '@memtrail/db';
import { createLogger, exitIfShutdownStalls, NestPinoLogger } from '@memtrail/logging';
import { ServiceMetrics, startMetricsServer } from '@memtrail/metrics';
import { AppModule } from './app.module.js';
import { QueryConfig } from './config.js';
import { propagateRequestIds, RpcMetricsInterceptor } from './observability.js';

async function main(): Promise<void> {
  const config = loadConfig(QueryConfig);
  const logger = createLogger({ service: 'query', level: config.LOG_LEVEL });
  const metrics = new ServiceMetrics('query');
  const server = new ServerTCP({ host: config.QUERY_BIND_HOST, port: config.QUERY_PORT });
  propagateRequestIds(server);
  const app = await NestFactory.createMicroservice(AppModule.register(config), {
    strategy: server,
    logger: new NestPinoLogger(logger),
  });
  app.useGlobalInterceptors(new RpcMetricsInterceptor(metrics));
  app.enableShutdownHooks();
  exitIfShutdownStalls(config.SHUTDOWN_TIMEOUT_S, logger);
  await app.listen();
  // The TCP transport has no HTTP: probes and Prometheus use this side port.
  if (config.METRICS_PORT > 0) {
    const sql = app.get(SqlPool);
    const clickhouse = app.get(ClickHouseClient);
    await startMetricsServer({
      metrics,
      port: config.METRICS_PORT,
      host: config.METRICS_HOST,
      // Ready when both stores this service reads answer.
      ready: async () => {
        await sql.query('SELECT 1');
        const ping = await clickhouse.ping();
        if (!ping.success) throw new Error(`ClickHouse: ${ping.error.message}`);
      },
    });
  }
  logger.info(
    { host: config.QUERY_BIND_HOST, port: config.QUERY_PORT, metricsPort: config.METRICS_PORT },
    'query service listening',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
