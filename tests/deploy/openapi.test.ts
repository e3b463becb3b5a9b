import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { loadConfig } from '@memtrail/config';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { GatewayConfig } from '../../services/gateway/src/config.js';
import {
  TEST_JWT_SECRET,
  TEST_QUERY_SECRET,
} from '../../services/gateway/test/support/gateway-harness.js';
import { createGatewayApp } from '../../services/gateway/src/create-app.js';
import { ROUTE_DOCS } from '../../services/gateway/src/openapi/catalogue.js';
import { listRoutes } from '../../services/gateway/src/openapi/routes.js';
import { ServiceMetrics } from '@memtrail/metrics';

/** The real gateway app (real Postgres and Redis; the query service is not needed here). */
describe('gateway OpenAPI, Swagger UI, request ids and HTTP metrics', () => {
  let stores: IsolatedStores;
  let app: NestExpressApplication;
  let base: string;
  const metrics = new ServiceMetrics('gateway');

  beforeAll(async () => {
    stores = await createIsolatedStores();
    const config = loadConfig(GatewayConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      QUEUE_PREFIX: stores.queuePrefix,
      QUERY_PORT: '1',
      JWT_SECRET: TEST_JWT_SECRET,
      QUERY_SECRET: TEST_QUERY_SECRET,
    });
    app = await createGatewayApp(config, false, metrics);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app?.close();
    await stores?.cleanup();
  });

  it('documents every registered route, and every documented route exists', async () => {
    const document = (await (await fetch(`${base}/docs/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { summary: string }>>;
    };
    expect(document.openapi).toBe('3.0.3');
    const routes = listRoutes(app).filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect({
        route,
        documented: Boolean(document.paths[path]?.[route.method.toLowerCase()]),
      }).toEqual({ route, documented: true });
    }
    const registered = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const key of Object.keys(ROUTE_DOCS)) {
      expect({ key, registered: registered.has(key) }).toEqual({ key, registered: true });
    }
    expect(document.paths['/upload']?.['post']?.summary).toMatch(/Upload a memory report/);
  });

  it('serves Swagger UI from the npm package, with no external URL', async () => {
    const page = await (await fetch(`${base}/docs`)).text();
    expect(page).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(page).not.toMatch(/https?:\/\//);
    for (const asset of [
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
      '/docs/init.js',
    ]) {
      const response = await fetch(`${base}${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect((await response.text()).length).toBeGreaterThan(20);
    }
  });

  it('echoes a caller request id, makes one otherwise, and refuses unsafe ones', async () => {
    const given = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'ci-run-42' } });
    expect(given.headers.get('x-request-id')).toBe('ci-run-42');
    const made = await fetch(`${base}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'a b\tc' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('times requests by route pattern, not by raw path', async () => {
    await fetch(`${base}/api/projects/some-id/members`);
    await fetch(`${base}/no/such/path`);
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'memtrail_http_request_duration_seconds_count{service="gateway",method="GET",route="/api/projects/:id/members",status_code="401"} 1',
    );
    expect(text).toMatch(/route="unmatched",status_code="404"\} 1/);
    expect(text).not.toContain('some-id');
  });
});
