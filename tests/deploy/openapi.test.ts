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
import { listRoutes, openApiPath } from '../../services/gateway/src/openapi/routes.js';
import { validate } from '@readme/openapi-parser';
import { ServiceMetrics } from '@memtrail/metrics';

type Schema = Record<string, unknown>;
interface OpenApi {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        summary: string;
        parameters?: Array<{ name: string; schema?: Schema }>;
        requestBody?: { content: Record<string, { schema?: Schema }> };
        responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
      }
    >
  >;
}

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

  // Last: its requests would count in the metrics test above.
  it('documents exactly the routes Nest serves, each of them answered by the running gateway', async () => {
    const document = (await (await fetch(`${base}/docs/openapi.json`)).json()) as OpenApi;
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = listRoutes(app).map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(served.length).toBeGreaterThan(60);
    expect([...new Set(documented)].sort()).toEqual([...new Set(served)].sort());

    // Each documented route reaches a handler: whatever it answers (401, 400, 404 of a missing
    // project, a redirect), it is not the router's "Cannot GET /path".
    for (const key of documented) {
      const [method, path] = key.split(' ') as [string, string];
      const url = path.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) =>
        /^sha/.test(name) ? 'abcd1234' : name === 'provider' ? 'github' : `x-${name}`,
      );
      const response = await fetch(`${base}${url}`, { method, redirect: 'manual' });
      const text = await response.text();
      expect({ key, routed: !text.includes(`Cannot ${method} `) }).toEqual({ key, routed: true });
    }
    expect(document.paths['/upload']?.['post']?.summary).toMatch(/Upload a memory report/);
  });

  it('is a valid OpenAPI 3.1 document, every parameter, body and answer typed', async () => {
    const document = (await (await fetch(`${base}/docs/openapi.json`)).json()) as OpenApi;
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result).toMatchObject({ valid: true });
    const untyped: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const schemas = [
          ...(operation.parameters ?? []).map((p) => [`parameter ${p.name}`, p.schema] as const),
          ...Object.entries(operation.requestBody?.content ?? {}).map(
            ([media, c]) => [`body ${media}`, c.schema] as const,
          ),
          ...Object.entries(operation.responses).flatMap(([status, r]) =>
            Object.entries(r.content ?? {}).map(
              ([media, c]) => [`${status} ${media}`, c.schema] as const,
            ),
          ),
        ];
        for (const [part, schema] of schemas) {
          if (!schema || Object.keys(schema).length === 0) untyped.push(`${where}: ${part}`);
        }
        if (Object.keys(operation.responses).length === 0) untyped.push(`${where}: no responses`);
      }
    }
    expect(untyped).toEqual([]);
  });
});
