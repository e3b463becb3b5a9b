import { afterEach, describe, expect, it } from '@jest/globals';
import { createOnpremAuth } from '../src/lib/auth/onpremAuth.ts';
import { STORAGE_KEYS } from '../src/lib/storageKeys.ts';
import { json, MemoryStorage, startServer } from './server.ts';

const USER = { id: 'u1', email: 'dev@example.com', created_at: '2026-01-01T00:00:00Z' };
const ok = {
  success: true,
  data: { user: USER, access_token: 'a1', refresh_token: 'r1' },
  error: null,
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function setup(handler: Parameters<typeof startServer>[0]) {
  const server = await startServer(handler);
  close = server.close;
  const storage = new MemoryStorage();
  return { auth: createOnpremAuth({ coreUrl: server.url, storage }), storage, server };
}

describe('on-premises auth', () => {
  it('login stores access token, refresh token and user under the product keys', async () => {
    const { auth, storage, server } = await setup((_req, res) => json(res, 200, ok));
    const result = await auth.signIn('dev@example.com', 'pw');
    expect(result.error).toBeNull();
    expect(server.calls[0]).toMatchObject({
      method: 'POST',
      path: '/auth/login',
      body: { email: 'dev@example.com', password: 'pw' },
    });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('a1');
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe('r1');
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.user) ?? '')).toEqual(USER);
    await expect(auth.getSession()).resolves.toMatchObject({ access_token: 'a1', user: USER });
  });

  it('shows the server error, else Login failed / Signup failed', async () => {
    const { auth } = await setup((req, res) =>
      req.path === '/auth/login' && (req.body as { email: string }).email === 'a@b.co'
        ? json(res, 401, { success: false, data: null, error: 'Invalid credentials' })
        : json(res, 400, { success: false, data: null, error: null }),
    );
    expect((await auth.signIn('a@b.co', 'x')).error?.message).toBe('Invalid credentials');
    expect((await auth.signIn('c@d.co', 'x')).error?.message).toBe('Login failed');
    expect((await auth.signUp('c@d.co', 'x', 'C')).error?.message).toBe('Signup failed');
  });

  it('success without tokens is an invalid response', async () => {
    const { auth, storage } = await setup((_req, res) =>
      json(res, 200, { success: true, data: {} }),
    );
    expect((await auth.signUp('a@b.co', 'x', 'A')).error?.message).toBe(
      'Invalid response from server',
    );
    expect(storage.items.size).toBe(0);
  });

  it('network failures carry their own message', async () => {
    const { auth, server } = await setup((_req, res) => json(res, 200, ok));
    await server.close();
    close = undefined;
    const { error } = await auth.signIn('a@b.co', 'x');
    expect(error?.message).toBeTruthy();
    expect(error?.message).not.toBe('Login failed');
  });

  it('refresh keeps the rotated refresh token; a refused refresh clears everything', async () => {
    let refuse = false;
    const { auth, storage, server } = await setup((req, res) => {
      if (req.path === '/auth/login') return json(res, 200, ok);
      if (refuse) return json(res, 401, { success: false, data: null, error: 'revoked' });
      json(res, 200, { success: true, data: { access_token: 'a2', refresh_token: 'r2' } });
    });
    await auth.signIn('dev@example.com', 'pw');
    await expect(auth.refreshSession()).resolves.toMatchObject({ access_token: 'a2', user: USER });
    expect(server.calls[1]?.body).toEqual({ refresh_token: 'r1' });
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe('r2');
    refuse = true;
    await expect(auth.refreshSession()).resolves.toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('sign out clears local tokens even when the server fails', async () => {
    const { auth, storage, server } = await setup((req, res) =>
      req.path === '/auth/login' ? json(res, 200, ok) : json(res, 500, {}),
    );
    await auth.signIn('dev@example.com', 'pw');
    await expect(auth.signOut()).resolves.toEqual({ error: null });
    expect(server.calls[1]).toMatchObject({ path: '/auth/logout', body: { refresh_token: 'r1' } });
    expect(storage.items.size).toBe(0);
    await expect(auth.getSession()).resolves.toBeNull();
  });

  it('OAuth, reset and update answer with the on-premises messages', async () => {
    const { auth } = await setup((_req, res) => json(res, 200, ok));
    expect((await auth.signInWithOAuth('github')).error?.message).toBe(
      'OAuth not supported in on-premises deployment',
    );
    expect((await auth.resetPassword('a@b.co')).error?.message).toBe(
      'Password reset not yet implemented for on-premises deployment',
    );
    expect((await auth.updatePassword('x')).error?.message).toBe(
      'Password update not yet implemented for on-premises deployment',
    );
  });
});
