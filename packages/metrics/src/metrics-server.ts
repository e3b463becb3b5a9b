import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceMetrics } from './service-metrics.js';

export interface MetricsServerOptions {
  metrics: ServiceMetrics;
  port: number;
  host?: string;
  /**
   * Readiness for `/readyz`: resolves when the service can do its work, rejects with the
   * reason when not. Without it `/readyz` equals `/healthz`.
   */
  ready?: () => Promise<void>;
}

export interface MetricsServer {
  /** The bound port (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * A small HTTP side server for the query service and the worker, which have no HTTP API of
 * their own (and for the gateway, so that /metrics stays off its public port): `GET /metrics`
 * in the Prometheus text format, `GET /healthz` (liveness: the event loop answers) and
 * `GET /readyz` (the service's stores answer). Kubernetes probes and Prometheus use it.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { metrics, ready } = options;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, { error: 'GET only' });
    if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.registry.contentType });
          res.end(text);
        },
        (error: Error) => reply(500, { error: `collecting metrics failed: ${error.message}` }),
      );
      return;
    }
    if (path === '/healthz') {
      return reply(200, {
        status: 'ok',
        service: metrics.service,
        uptime_s: Math.round(process.uptime()),
      });
    }
    if (path === '/readyz') {
      (ready ?? (async () => undefined))().then(
        () => reply(200, { status: 'ok', service: metrics.service }),
        (error: Error) =>
          reply(503, { status: 'error', service: metrics.service, error: error.message }),
      );
      return;
    }
    reply(404, { error: `no route ${path}: try /metrics, /healthz or /readyz` });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new Error(
          `metrics server could not listen on ${options.host ?? '0.0.0.0'}:${options.port}: ${error.message}`,
        ),
      ),
    );
    server.listen(options.port, options.host ?? '0.0.0.0', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
