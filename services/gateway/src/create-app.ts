import { Logger, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { requestIdMiddleware } from '@memtrail/logging';
import { httpMetricsMiddleware, ServiceMetrics } from '@memtrail/metrics';
import { AppModule } from './app.module.js';
import { GatewayConfig } from './config.js';
import { serveApiDocs } from './openapi/serve-docs.js';
import { UPLOAD_PATHS } from './upload/upload.controller.js';
import { uploadBodyParser } from './upload/upload-body.js';
import { send } from './upload/upload-exception.filter.js';

/**
 * Builds the gateway application: used by main.ts and by tests, so both run the same body
 * parsing. Upload routes read their own (large, possibly gzip) bodies; every other route gets
 * a JSON parser with a small limit. Every request gets a request id and is timed into `metrics`
 * (main.ts serves them on METRICS_PORT).
 */
export async function createGatewayApp(
  config: GatewayConfig,
  logger: LoggerService | false = false,
  metrics: ServiceMetrics = new ServiceMetrics('gateway'),
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    logger,
    bodyParser: false,
  });
  app.use(requestIdMiddleware);
  app.use(httpMetricsMiddleware(metrics));
  serveApiDocs(app, config.PUBLIC_URL ?? config.CORE_URL);
  const uploadErrors = new Logger('UploadErrors');
  app.use(UPLOAD_PATHS, uploadBodyParser(config.UPLOAD_MAX_BYTES));
  // Errors from reading the upload body happen before Nest's routing, so they are answered here.
  app.use(UPLOAD_PATHS, (error: unknown, _req: Request, res: Response, _next: NextFunction) =>
    send(res, error, uploadErrors),
  );
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { extended: false, limit: '1mb' });
  return app;
}
