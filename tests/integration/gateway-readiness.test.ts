import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication, INestMicroservice } from '@nestjs/common';
import { loadConfig } from '@memtrail/config';
import type { ReadinessReport } from '@memtrail/contracts';
import { createIsolatedStores, freePort, type IsolatedStores } from '@memtrail/testing';
import { createGatewayApp } from '../../services/gateway/src/create-app.js';
import { GatewayConfig } from '../../services/gateway/src/config.js';
import {
  TEST_JWT_SECRET,
  TEST_QUERY_SECRET,
} from '../../services/gateway/test/support/gateway-harness.js';
import { startQueryService } from './support/read-services.js';

describe('gateway readiness through the query service', () => {
  let stores: IsolatedStores;
  let gateway: INestApplication;
  let query: INestMicroservice | undefined;
  let baseUrl: string;
  let queryPort: number;

  const startQuery = async () => {
    query = await startQueryService(stores, queryPort);
  };

  const readyz = async () => {
    const response = await fetch(`${baseUrl}/readyz`);
    return { status: response.status, body: (await response.json()) as ReadinessReport };
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    queryPort = await freePort();
    await startQuery();
    const config = loadConfig(GatewayConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      QUERY_PORT: String(queryPort),
      QUERY_TIMEOUT_MS: '1500',
      JWT_SECRET: TEST_JWT_SECRET,
      QUERY_SECRET: TEST_QUERY_SECRET,
      WEB_DIST_DIR: '/nonexistent',
    });
    gateway = await createGatewayApp(config);
    await gateway.listen(0, '127.0.0.1');
    baseUrl = await gateway.getUrl();
  });

  afterAll(async () => {
    await gateway?.close();
    await query?.close();
    await stores?.cleanup();
  });

  it('answers liveness without touching dependencies', async () => {
    const response = await fetch(`${baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', service: 'gateway' });
  });

  it('reports every dependency up after a real round trip to the query service', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    for (const name of ['postgres', 'redis', 'clickhouse', 'query'] as const) {
      expect(body.checks[name]).toMatchObject({ ok: true });
    }
  });

  it('answers 503 naming the query service and ClickHouse when the query service is down', async () => {
    await query?.close();
    query = undefined;
    const { status, body } = await readyz();
    expect(status).toBe(503);
    expect(body.status).toBe('error');
    expect(body.checks.postgres.ok).toBe(true);
    expect(body.checks.redis.ok).toBe(true);
    expect(body.checks.query.ok).toBe(false);
    expect(body.checks.query.error).toBeTruthy();
    expect(body.checks.clickhouse).toMatchObject({ ok: false });

    await startQuery();
    // The TCP client reconnects on the next call.
    const again = await readyz();
    expect(again.body.checks.query.ok).toBe(true);
  });

  it('answers unknown API paths with a 404 in the product envelope', async () => {
    const response = await fetch(`${baseUrl}/api/does-not-exist`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 'error',
      type: 'NotFoundError',
      error: 'Cannot GET /api/does-not-exist',
      data: null,
    });
  });
});
