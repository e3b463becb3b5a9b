import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@memtrail/config';
import type { AuthResponse, AuthSession } from '@memtrail/contracts';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { freePort, type IsolatedStores } from '@memtrail/testing';
import { createGatewayApp } from '../../src/create-app.js';
import { GatewayConfig } from '../../src/config.js';
import { serveWeb } from '../../src/web/serve-web.js';

export interface Gateway {
  app: INestApplication;
  url: string;
  prisma: PrismaClient;
  close(): Promise<void>;
}

/** One signing key per test file, so gateways a test restarts accept each other's tokens. */
export const TEST_JWT_SECRET = randomBytes(32).toString('hex');

/** The gateway → query shared secret of a test file's services. */
export const TEST_QUERY_SECRET = randomBytes(32).toString('hex');

/**
 * The real gateway in-process against a test file's isolated stores, on a chosen or free port.
 * The query service is not started: these tests never read through it.
 */
export async function startGateway(
  stores: IsolatedStores,
  env: Record<string, string> = {},
  port?: number,
): Promise<Gateway> {
  const listenPort = port ?? (await freePort());
  const config = loadConfig(GatewayConfig, {
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: stores.redisUrl,
    QUEUE_PREFIX: stores.queuePrefix,
    QUERY_PORT: String(await freePort()),
    WEB_DIST_DIR: '/nonexistent',
    PUBLIC_URL: `http://127.0.0.1:${listenPort}`,
    JWT_SECRET: TEST_JWT_SECRET,
    QUERY_SECRET: TEST_QUERY_SECRET,
    NODE_ENV: 'test',
    ...env,
  });
  const app = await createGatewayApp(config);
  // As main.ts does; the default '/nonexistent' serves no web app.
  if (config.WEB_DIST_DIR) serveWeb(app, config.WEB_DIST_DIR, config);
  await app.listen(listenPort, '127.0.0.1');
  const prisma = createPrismaClient(stores.databaseUrl);
  return {
    app,
    url: `http://127.0.0.1:${listenPort}`,
    prisma,
    close: async () => {
      await app.close();
      await prisma.$disconnect();
    },
  };
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<CallResult<T>> {
  const response = await fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...(options.token && { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : null) as T,
    headers: response.headers,
  };
}

export const strongPassword = (tag = '') => `Str0ng!Pass${tag}`;

/** Signs a user up on an on-premises gateway (no confirmation) and returns the session. */
export async function signUpOnPrem(
  base: string,
  email: string,
  password = strongPassword(),
): Promise<AuthSession> {
  const result = await call<AuthResponse<AuthSession>>(base, 'POST', '/auth/signup', {
    body: { email, password, full_name: 'Test User' },
  });
  if (result.status !== 200 || !result.body.data) {
    throw new Error(`sign-up of ${email} failed: ${result.status} ${JSON.stringify(result.body)}`);
  }
  return result.body.data;
}
