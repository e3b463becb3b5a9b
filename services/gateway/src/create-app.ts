import type { LoggerService } from '@nestjs/common';
import type { IncomingMessage, Server } from 'node:http';
import { NestFactory } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { requestIdMiddleware } from '@memtrail/logging';
import { httpMetricsMiddleware, ServiceMetrics } from '@memtrail/metrics';
import { AppModule } from './app.module.js';
import { GatewayConfig } from './config.js';
import { deferContinue, sendContinue } from './http/expect-continue.js';
import { applySecurityHeaders } from './http/security-headers.js';
import { serveApiDocs } from './openapi/serve-docs.js';
import { UPLOAD_PATHS } from './upload/upload.controller.js';
import { deferUploadBody, isDeferredUpload } from './upload/upload-body.js';

/**
 * Clients that trickle a request get 408 and lose their connection once its time is up; Node
 * checks every 30 s by default, which would let one byte every few seconds hold it for a minute.
 */
function limitRequestTimes(server: Server, config: GatewayConfig): void {
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_S * 1000;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_S * 1000;
  // Read when the server starts listening (an option of createServer, untyped as a property).
  Object.assign(server, { connectionsCheckingInterval: 1000 });
}

/** Requests the app's body parsers read: every content type they handle, except on uploads. */
const parsed = (contentType: RegExp) => (req: IncomingMessage) =>
  !isDeferredUpload(req) && contentType.test(req.headers['content-type'] ?? '');

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
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.register(config, metrics),
    {
      logger,
      bodyParser: false,
    },
  );
  applySecurityHeaders(app, config);
  app.use(requestIdMiddleware);
  app.use(httpMetricsMiddleware(metrics));
  serveApiDocs(app, config.PUBLIC_URL ?? config.CORE_URL);
  app.use(UPLOAD_PATHS, deferUploadBody);
  // Uploads send their 100 Continue in readUploadBody, once they were admitted.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!isDeferredUpload(req)) sendContinue(req, res);
    next();
  });
  app.useBodyParser('json', { limit: '1mb', type: parsed(/^application\/json\s*(;|$)/i) });
  app.useBodyParser('urlencoded', {
    extended: false,
    limit: '1mb',
    type: parsed(/^application\/x-www-form-urlencoded\s*(;|$)/i),
  });
  const server = app.getHttpServer() as Server;
  limitRequestTimes(server, config);
  deferContinue(server);
  return app;
}
