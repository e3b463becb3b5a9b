import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  AUTH_MESSAGES,
  VALIDATION_MESSAGES,
  type AuthResponse,
  type AuthSession,
} from '@memtrail/contracts';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  strongPassword,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';

type Session = AuthResponse<AuthSession>;

describe('on-premises auth (spec §7 endpoints, no SMTP, no OAuth provider)', () => {
  let stores: IsolatedStores;
  let gw: Gateway;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '4',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  it('signs up, in, refreshes, updates the password and signs out', async () => {
    const email = 'Ada@Example.COM ';
    const signup = await call<Session>(gw.url, 'POST', '/auth/signup', {
      body: { email, password: strongPassword('1') },
    });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ success: true, error: null });
    expect(signup.body.data?.user.email).toBe('ada@example.com');
    expect(signup.body.data?.access_token).toEqual(expect.any(String));

    const login = await call<Session>(gw.url, 'POST', '/auth/login', {
      body: { email: 'ada@example.com', password: strongPassword('1') },
    });
    expect(login.status).toBe(200);
    const first = login.body.data!;
    const me = await call(gw.url, 'GET', '/auth/user', { token: first.access_token });
    expect(me.body).toMatchObject({ success: true, data: { user: { email: 'ada@example.com' } } });
    // The web refreshes every 45 minutes (spec §9): the access token must outlive that.
    expect(first.expires_in).toBeGreaterThan(2700);

    const refreshed = await call<Session>(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    const second = refreshed.body.data!;
    expect(second.refresh_token).not.toBe(first.refresh_token);

    const updated = await call<Session>(gw.url, 'PUT', '/auth/password', {
      token: second.access_token,
      body: { current_password: strongPassword('1'), password: strongPassword('2') },
    });
    expect(updated.status).toBe(200);
    // The change ended the earlier session family.
    expect(
      (
        await call(gw.url, 'POST', '/auth/refresh', {
          body: { refresh_token: second.refresh_token },
        })
      ).status,
    ).toBe(401);
    const oldPassword = await call(gw.url, 'POST', '/auth/login', {
      body: { email: 'ada@example.com', password: strongPassword('1') },
    });
    expect(oldPassword.status).toBe(401);
    expect(oldPassword.body).toEqual({
      success: false,
      data: null,
      error: AUTH_MESSAGES.invalidCredentials,
      type: 'UnauthorizedError',
    });

    const current = updated.body.data!;
    const logout = await call(gw.url, 'POST', '/auth/logout', {
      body: { refresh_token: current.refresh_token },
    });
    expect(logout.body).toMatchObject({ success: true });
    const after = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: current.refresh_token },
    });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ success: false, error: AUTH_MESSAGES.invalidRefreshToken });
  });

  it('revokes the whole family when a spent refresh token is presented again', async () => {
    const session = await signUpOnPrem(gw.url, 'reuse@example.com');
    const next = await call<Session>(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    const live = next.body.data!.refresh_token;
    const replay = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(replay.status).toBe(401);
    // The thief replayed the old token: the legitimate newer token is dead too.
    expect(
      (await call(gw.url, 'POST', '/auth/refresh', { body: { refresh_token: live } })).status,
    ).toBe(401);
    const family = await gw.prisma.refreshToken.findMany({
      where: { user: { email: 'reuse@example.com' } },
    });
    expect(family).toHaveLength(2);
    expect(family.every((t) => t.revokedAt !== null)).toBe(true);
  });

  it('rejects bad input with the spec messages and writes nothing', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        '/auth/signup',
        { email: 'not-an-email', password: strongPassword() },
        VALIDATION_MESSAGES.email,
      ],
      [
        '/auth/signup',
        { email: `${'a'.repeat(250)}@x.io`, password: strongPassword() },
        VALIDATION_MESSAGES.email,
      ],
      [
        '/auth/signup',
        { email: 'weak@example.com', password: 'password' },
        VALIDATION_MESSAGES.password,
      ],
      [
        '/auth/signup',
        { email: 'weak@example.com', password: '' },
        VALIDATION_MESSAGES.passwordRequired,
      ],
      [
        '/auth/signup',
        { email: 'weak@example.com', password: `Aa1!${'x'.repeat(125)}` },
        VALIDATION_MESSAGES.password,
      ],
      [
        '/auth/signup',
        { email: 'named@example.com', password: strongPassword(), full_name: '  ' },
        VALIDATION_MESSAGES.fullNameRequired,
      ],
      [
        '/auth/signup',
        { email: 'named@example.com', password: strongPassword(), full_name: 'n'.repeat(101) },
        VALIDATION_MESSAGES.fullNameTooLong,
      ],
      [
        '/auth/login',
        { email: 'ada@example.com', password: '' },
        VALIDATION_MESSAGES.passwordRequired,
      ],
      ['/auth/login', { email: 'nope', password: 'x' }, VALIDATION_MESSAGES.email],
      ['/auth/refresh', {}, `refresh_token: ${VALIDATION_MESSAGES.required}`],
      ['/auth/logout', { refresh_token: 42 }, `refresh_token: ${VALIDATION_MESSAGES.required}`],
      ['/auth/token', {}, `code: ${VALIDATION_MESSAGES.required}`],
    ];
    for (const [path, body, message] of cases) {
      const result = await call(gw.url, 'POST', path, { body });
      expect({ path, body, status: result.status, response: result.body }).toEqual({
        path,
        body,
        status: 400,
        response: { success: false, data: null, error: message, type: 'BadRequestError' },
      });
    }
    expect(
      await gw.prisma.user.count({
        where: { email: { in: ['weak@example.com', 'named@example.com'] } },
      }),
    ).toBe(0);
  });

  it('refuses a second account for the same address, whatever its case', async () => {
    await signUpOnPrem(gw.url, 'twice@example.com');
    const again = await call(gw.url, 'POST', '/auth/signup', {
      body: { email: ' TWICE@example.com', password: strongPassword() },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: AUTH_MESSAGES.emailTaken });
  });

  it('answers unconfigured flows with the spec messages', async () => {
    const settings = await call(gw.url, 'GET', '/auth/settings');
    expect(settings.body).toEqual({
      success: true,
      error: null,
      data: { mode: 'onprem', providers: [], email_confirmation: false, password_reset: false },
    });
    for (const provider of ['github', 'google']) {
      const oauth = await call(gw.url, 'GET', `/auth/oauth/${provider}`);
      expect(oauth.status).toBe(501);
      expect(oauth.body).toMatchObject({ success: false, error: AUTH_MESSAGES.oauthOnPrem });
    }
    const reset = await call(gw.url, 'POST', '/auth/recover', {
      body: { email: 'ada@example.com' },
    });
    expect(reset.status).toBe(501);
    expect(reset.body).toMatchObject({ success: false, error: AUTH_MESSAGES.resetOnPrem });
  });

  it('limits sign-in attempts per account with 429 and Retry-After, shared through Redis', async () => {
    await signUpOnPrem(gw.url, 'limited@example.com');
    const attempt = () =>
      call(gw.url, 'POST', '/auth/login', {
        body: { email: 'limited@example.com', password: 'Wrong!Pass1' },
      });
    for (let i = 0; i < 4; i += 1) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({
      success: false,
      error: AUTH_MESSAGES.tooManyRequests,
      type: 'TooManyRequestsError',
    });
    // Even the right password waits for the window: the counter is per account.
    const right = await call(gw.url, 'POST', '/auth/login', {
      body: { email: 'limited@example.com', password: strongPassword() },
    });
    expect(right.status).toBe(429);
    // A second replica sharing the Redis sees the same counter.
    const replica = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '4',
    });
    try {
      const viaReplica = await call(replica.url, 'POST', '/auth/login', {
        body: { email: 'limited@example.com', password: strongPassword() },
      });
      expect(viaReplica.status).toBe(429);
    } finally {
      await replica.close();
    }
  });
});
