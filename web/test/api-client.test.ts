import { afterEach, describe, expect, it } from '@jest/globals';
import { createApiClient } from '../src/lib/api/client.ts';
import type { AuthSession } from '../src/lib/auth/types.ts';
import { json, startServer } from './server.ts';

const session = (token: string): AuthSession => ({
  user: { email: 'dev@example.com' },
  access_token: token,
});

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(
  handler: Parameters<typeof startServer>[0],
  auth: { current: AuthSession | null; refreshed: AuthSession | null },
  anonymous = false,
) {
  const server = await startServer(handler);
  close = server.close;
  const lost: string[] = [];
  let refreshes = 0;
  const client = createApiClient({
    coreUrl: server.url,
    anonymous,
    getSession: async () => auth.current,
    refreshSession: async () => {
      refreshes++;
      auth.current = auth.refreshed;
      return auth.refreshed;
    },
    onSessionLost: (message) => lost.push(message),
  });
  return { client, server, lost, refreshes: () => refreshes };
}

describe('core service client', () => {
  it('sends the bearer token and returns the envelope data', async () => {
    const { client, server } = await setup(
      (_req, res) =>
        json(res, 200, { status: 'success', type: null, error: null, data: { projects: [] } }),
      { current: session('t1'), refreshed: null },
    );
    await expect(client.get('/api/projects')).resolves.toEqual({ projects: [] });
    expect(server.calls[0]).toMatchObject({ method: 'GET', authorization: 'Bearer t1' });
  });

  it('on 401 refreshes once and retries with the new token', async () => {
    const { client, server, refreshes } = await setup(
      (req, res) =>
        req.authorization === 'Bearer fresh'
          ? json(res, 200, { status: 'success', type: null, error: null, data: 42 })
          : json(res, 401, { status: 'error', type: 'Unauthorized', error: 'expired', data: null }),
      { current: session('stale'), refreshed: session('fresh') },
    );
    await expect(client.request('POST', '/api/projects', { name: 'fw' })).resolves.toBe(42);
    expect(refreshes()).toBe(1);
    expect(server.calls.map((c) => c.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
    expect(server.calls[1]?.body).toEqual({ name: 'fw' });
  });

  it('a 401 whose refresh fails ends the session', async () => {
    const { client, lost } = await setup((_req, res) => json(res, 401, {}), {
      current: session('stale'),
      refreshed: null,
    });
    await expect(client.get('/api/projects')).rejects.toThrow('Session expired and refresh failed');
    expect(lost).toEqual(['Session expired and refresh failed']);
  });

  it('without a session and no refresh it reports No active session and calls nothing', async () => {
    const { client, lost, server } = await setup((_req, res) => json(res, 200, {}), {
      current: null,
      refreshed: null,
    });
    await expect(client.get('/api/projects')).rejects.toThrow('No active session');
    expect(lost).toEqual(['No active session']);
    expect(server.calls).toHaveLength(0);
  });

  it('anonymous (public project pages): no token, and a 401 is an error, not a lost session', async () => {
    const { client, server, lost, refreshes } = await setup(
      (req, res) =>
        req.path.endsWith('/targets')
          ? json(res, 200, { status: 'success', type: null, error: null, data: { targets: [] } })
          : json(res, 401, {
              status: 'error',
              type: 'UnauthorizedError',
              error: 'Unauthorized',
              data: null,
            }),
      { current: session('unused'), refreshed: session('unused') },
      true,
    );
    await expect(client.get('/api/p/targets')).resolves.toEqual({ targets: [] });
    await expect(client.get('/api/p/t/budgets')).rejects.toThrow('UnauthorizedError: Unauthorized');
    expect(server.calls.map((c) => c.authorization)).toEqual([undefined, undefined]);
    expect({ lost, refreshes: refreshes() }).toEqual({ lost: [], refreshes: 0 });
  });

  it('maps error envelopes to "{type or Error}: {error}"', async () => {
    const { client } = await setup(
      (req, res) =>
        req.path === '/typed'
          ? json(res, 404, {
              status: 'error',
              type: 'NotFoundError',
              error: 'No project 7',
              data: null,
            })
          : json(res, 400, { status: 'error', type: null, error: 'Bad name', data: null }),
      { current: session('t'), refreshed: null },
    );
    await expect(client.get('/typed')).rejects.toThrow('NotFoundError: No project 7');
    await expect(client.get('/untyped')).rejects.toThrow('Error: Bad name');
  });

  it('maps other failures to "Core service error: {status} {statusText}"', async () => {
    const { client } = await setup(
      (_req, res) => {
        res.statusCode = 502;
        res.statusMessage = 'Bad Gateway';
        res.end('<html>upstream down</html>');
      },
      { current: session('t'), refreshed: null },
    );
    await expect(client.get('/api/projects')).rejects.toThrow(
      'Core service error: 502 Bad Gateway',
    );
  });

  it('shares identical in-flight GETs but not writes', async () => {
    const { client, server } = await setup(
      async (_req, res) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        json(res, 200, { status: 'success', type: null, error: null, data: 'ok' });
      },
      { current: session('t'), refreshed: null },
    );
    const results = await Promise.all([
      client.get('/api/a'),
      client.get('/api/a'),
      client.get('/api/b'),
      client.request('POST', '/api/a'),
      client.request('POST', '/api/a'),
    ]);
    expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(server.calls.filter((c) => c.method === 'GET' && c.path === '/api/a')).toHaveLength(1);
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(2);
    // Once settled, the next GET goes to the server again.
    await client.get('/api/a');
    expect(server.calls.filter((c) => c.method === 'GET' && c.path === '/api/a')).toHaveLength(2);
  });
});
