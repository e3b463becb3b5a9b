import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH_MESSAGES, type AuthResponse, type AuthSession } from '@memtrail/contracts';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  startGateway,
  strongPassword,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { linkIn, startMailbox } from './support/mailbox.js';

type Session = AuthResponse<AuthSession>;

/**
 * Sessions end when they should, at once; passwords change only with proof; nobody can lock an
 * owner out or learn which addresses have accounts. Cloud mode (mail confirmation) with a real
 * SMTP server; client addresses come from X-Forwarded-For through one trusted proxy hop.
 */
describe('sessions, passwords and sign-in limits', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const me = (token: string) => call(gw.url, 'GET', '/auth/user', { token });
  const login = (email: string, password: string, ip = '10.0.0.1') =>
    call<Session>(gw.url, 'POST', '/auth/login', {
      body: { email, password },
      headers: from(ip),
    });
  const mailsTo = (email: string) =>
    mailbox.messages.filter((m) => new RegExp(`^To: ${email}`, 'im').test(m));

  /** A confirmed account, signed in once. */
  async function account(email: string, password = strongPassword()): Promise<AuthSession> {
    await call(gw.url, 'POST', '/auth/signup', { body: { email, password } });
    const link = linkIn(mailsTo(email).at(-1)!, '/auth/confirm?token=');
    const landing = await fetch(link, { redirect: 'manual' });
    const code = new URL(landing.headers.get('location')!).searchParams.get('code')!;
    const session = await call<Session>(gw.url, 'POST', '/auth/token', { body: { code } });
    return session.body.data!;
  }

  beforeAll(async () => {
    stores = await createIsolatedStores();
    mailbox = await startMailbox();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'cloud',
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      TRUST_PROXY_HOPS: '1',
      AUTH_RATE_LIMIT_PER_ACCOUNT: '3',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => mailbox?.server.close(() => resolve(undefined)));
    await stores?.cleanup();
  });

  it('ends a session at sign-out: its access token is refused at once, others stay', async () => {
    const first = await account('signout@example.com');
    const second = (await login('signout@example.com', strongPassword())).body.data!;
    expect((await me(first.access_token)).status).toBe(200);
    await call(gw.url, 'POST', '/auth/logout', { body: { refresh_token: first.refresh_token } });
    expect((await me(first.access_token)).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(200);
  });

  it('ends the whole family when a spent refresh token comes back', async () => {
    const session = await account('replay@example.com');
    const next = await call<Session>(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    const live = next.body.data!;
    expect((await me(live.access_token)).status).toBe(200);
    const replay = await call(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect((await me(live.access_token)).status).toBe(401);
    expect((await me(session.access_token)).status).toBe(401);
  });

  it('changes a password only with the current one, ending every other session', async () => {
    const email = 'change@example.com';
    const first = await account(email, strongPassword('1'));
    const second = (await login(email, strongPassword('1'))).body.data!;
    const put = (body: Record<string, string>) =>
      call<Session>(gw.url, 'PUT', '/auth/password', { token: first.access_token, body });

    const without = await put({ password: strongPassword('2') });
    expect(without.status).toBe(400);
    expect(without.body.error).toBe('current_password: This field is required');
    const wrong = await put({ current_password: 'Not!Mine123', password: strongPassword('2') });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe(AUTH_MESSAGES.currentPasswordWrong);
    expect((await me(second.access_token)).status).toBe(200);

    const changed = await put({
      current_password: strongPassword('1'),
      password: strongPassword('2'),
    });
    expect(changed.status).toBe(200);
    expect((await me(first.access_token)).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(401);
    expect((await me(changed.body.data!.access_token)).status).toBe(200);
    expect((await login(email, strongPassword('2'))).status).toBe(200);
  });

  it('spends every other reset link once a password was reset', async () => {
    const email = 'links@example.com';
    const session = await account(email);
    const resetLinks: string[] = [];
    for (let i = 0; i < 2; i++) {
      await call(gw.url, 'POST', '/auth/recover', { body: { email }, headers: from('10.0.1.1') });
      resetLinks.push(linkIn(mailsTo(email).at(-1)!, '/reset-password?token='));
    }
    const [older, newer] = resetLinks.map((link) => new URL(link).searchParams.get('token')!);
    expect(older).not.toBe(newer);
    const done = await call<Session>(gw.url, 'POST', '/auth/reset-password', {
      body: { token: newer, password: strongPassword('n') },
      headers: from('10.0.1.1'),
    });
    expect(done.status).toBe(200);
    const stale = await call(gw.url, 'POST', '/auth/reset-password', {
      body: { token: older, password: strongPassword('o') },
      headers: from('10.0.1.1'),
    });
    expect(stale.body).toMatchObject({ success: false, error: AUTH_MESSAGES.invalidLink });
    expect((await me(session.access_token)).status).toBe(401);
  });

  it('limits failed sign-ins per account and address, so an attacker cannot lock the owner out', async () => {
    const email = 'owner@example.com';
    await account(email);
    for (let i = 0; i < 3; i++) {
      expect((await login(email, 'Wrong!Pass1', '203.0.113.9')).status).toBe(401);
    }
    const attacker = await login(email, strongPassword(), '203.0.113.9');
    expect(attacker.status).toBe(429);
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, from their own address, signs in as usual.
    expect((await login(email, strongPassword(), '198.51.100.7')).status).toBe(200);
  });

  it('answers a sign-up with a registered address as any other, and mails its owner', async () => {
    const email = 'taken@example.com';
    await account(email);
    const before = mailsTo(email).length;
    const fresh = await call<Session>(gw.url, 'POST', '/auth/signup', {
      body: { email: 'new-one@example.com', password: strongPassword() },
    });
    const taken = await call<Session>(gw.url, 'POST', '/auth/signup', {
      body: { email, password: strongPassword('x') },
    });
    const shape = (answer: typeof fresh) => ({
      status: answer.status,
      keys: Object.keys(answer.body).sort(),
      data: Object.keys(answer.body.data!).sort(),
      user: Object.keys((answer.body.data as { user: object }).user).sort(),
      message: (answer.body as { message?: string }).message,
    });
    expect(shape(taken)).toEqual(shape(fresh));
    expect(taken.body.data!.user.email).toBe(email);
    const owner = await gw.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(taken.body.data!.user.id).not.toBe(owner.id);
    // The owner learns of it; the password they have still works.
    const notices = mailsTo(email).slice(before);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('already has one');
    expect((await login(email, strongPassword(), '10.0.2.1')).status).toBe(200);
  });
});
