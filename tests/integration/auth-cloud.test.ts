import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { AUTH_MESSAGES, type AuthResponse, type AuthSession } from '@memtrail/contracts';
import { createIsolatedStores, freePort, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  startGateway,
  strongPassword,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { linkIn, startMailbox } from './support/mailbox.js';
import { authorize as authorizeAt, Browser, startOidcProvider } from './support/oidc.js';

type Session = AuthResponse<AuthSession>;

const ACCOUNTS: Record<string, { email: string; email_verified: boolean; name: string }> = {
  grace: { email: 'grace@example.com', email_verified: true, name: 'Grace Hopper' },
  linus: { email: 'Linus@Example.com', email_verified: true, name: 'Linus' },
  mallory: { email: 'mallory@example.com', email_verified: false, name: 'Mallory' },
};

describe('cloud-mode auth with a real SMTP server and a real OpenID provider', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let idpServer: Server;
  let issuer: string;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    mailbox = await startMailbox();
    const gatewayPort = await freePort();
    const idpPort = await freePort();
    const clients = (['google', 'github'] as const).map((id) => ({
      client_id: `memtrail-${id}`,
      client_secret: `secret-${id}-0123456789abcdef`,
      redirect_uris: [`http://127.0.0.1:${gatewayPort}/auth/oauth/${id}/callback`],
    }));
    ({ issuer, server: idpServer } = await startOidcProvider(idpPort, clients, ACCOUNTS));
    gw = await startGateway(
      stores,
      {
        DEPLOYMENT_MODE: 'cloud',
        SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
        MAIL_FROM: 'Memtrail <no-reply@memtrail.test>',
        ...Object.fromEntries(
          clients.flatMap((c) => {
            const id = c.client_id.replace('memtrail-', '').toUpperCase();
            return [
              [`OAUTH_${id}_CLIENT_ID`, c.client_id],
              [`OAUTH_${id}_CLIENT_SECRET`, c.client_secret],
              [`OAUTH_${id}_ISSUER`, issuer],
            ];
          }),
        ),
      },
      gatewayPort,
    );
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => idpServer?.close(resolve));
    await new Promise((resolve) => mailbox?.server.close(() => resolve(undefined)));
    await stores?.cleanup();
  });

  const exchange = (code: string) =>
    call<Session>(gw.url, 'POST', '/auth/token', { body: { code } });

  it('confirms sign-up by mail before the first sign-in', async () => {
    const signup = await call<AuthResponse<{ confirmation_sent: boolean }>>(
      gw.url,
      'POST',
      '/auth/signup',
      {
        body: {
          email: 'Hedy@Example.com',
          password: strongPassword('c'),
          data: { full_name: ' Hedy Lamarr ' },
        },
      },
    );
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({
      success: true,
      message: AUTH_MESSAGES.confirmationSent,
      data: {
        confirmation_sent: true,
        access_token: null,
        user: { email: 'hedy@example.com', full_name: 'Hedy Lamarr' },
      },
    });
    const early = await call(gw.url, 'POST', '/auth/login', {
      body: { email: 'hedy@example.com', password: strongPassword('c') },
    });
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ success: false, error: AUTH_MESSAGES.emailNotConfirmed });

    const mail = mailbox.messages.find((m) => /To: hedy@example\.com/i.test(m))!;
    expect(mail).toMatch(/Content-Type: text\/plain/i);
    expect(mail).toMatch(/Content-Type: text\/html/i);
    const link = linkIn(mail, '/auth/confirm?token=');
    const landing = await fetch(link, { redirect: 'manual' });
    expect(landing.status).toBe(302);
    const root = new URL(landing.headers.get('location')!);
    expect(root.origin + root.pathname).toBe(`${gw.url}/`);
    const session = await exchange(root.searchParams.get('code')!);
    expect(session.body.data?.user.email_confirmed_at).toEqual(expect.any(String));
    // Codes and links are single use.
    expect((await exchange(root.searchParams.get('code')!)).status).toBe(400);
    const again = await fetch(link, { redirect: 'manual' });
    expect(new URL(again.headers.get('location')!).searchParams.get('error')).toBe('invalid_link');

    const login = await call<Session>(gw.url, 'POST', '/auth/login', {
      body: { email: 'hedy@example.com', password: strongPassword('c') },
    });
    expect(login.status).toBe(200);
    const refreshed = await call<Session>(gw.url, 'POST', '/auth/refresh', {
      body: { refresh_token: login.body.data!.refresh_token },
    });
    const updated = await call<Session>(gw.url, 'PUT', '/auth/password', {
      token: refreshed.body.data!.access_token,
      body: { current_password: strongPassword('c'), password: strongPassword('d') },
    });
    expect(updated.status).toBe(200);
    expect(
      (
        await call(gw.url, 'POST', '/auth/logout', {
          body: { refresh_token: updated.body.data!.refresh_token },
        })
      ).status,
    ).toBe(200);
  });

  it('resets a password through the mailed /reset-password link on our own origin', async () => {
    await call(gw.url, 'POST', '/auth/signup', {
      body: { email: 'reset@example.com', password: strongPassword('r') },
    });
    const before = mailbox.messages.length;
    const recover = await call(gw.url, 'POST', '/auth/recover', {
      body: { email: 'RESET@example.com' },
    });
    expect(recover.body).toMatchObject({ success: true, message: AUTH_MESSAGES.resetSent });
    // Unknown addresses get the same answer and no mail.
    const unknown = await call(gw.url, 'POST', '/auth/recover', {
      body: { email: 'nobody@example.com' },
    });
    expect(unknown.body).toMatchObject({ success: true, message: AUTH_MESSAGES.resetSent });
    const mails = mailbox.messages.slice(before);
    expect(mails).toHaveLength(1);
    const link = new URL(linkIn(mails[0]!, '/reset-password?token='));
    expect(link.origin).toBe(gw.url);
    const token = link.searchParams.get('token')!;

    const weak = await call(gw.url, 'POST', '/auth/reset-password', {
      body: { token, password: 'weak' },
    });
    expect(weak.status).toBe(400);
    const done = await call<Session>(gw.url, 'POST', '/auth/reset-password', {
      body: { token, password: strongPassword('n') },
    });
    expect(done.status).toBe(200);
    expect(done.body.data?.user.email_confirmed_at).toEqual(expect.any(String));
    const reused = await call(gw.url, 'POST', '/auth/reset-password', {
      body: { token, password: strongPassword('m') },
    });
    expect(reused.body).toMatchObject({ success: false, error: AUTH_MESSAGES.invalidLink });
    const login = await call(gw.url, 'POST', '/auth/login', {
      body: { email: 'reset@example.com', password: strongPassword('n') },
    });
    expect(login.status).toBe(200);
  });

  /** Runs the provider's login and consent pages; returns the provider's redirect to us. */
  const authorize = (
    browser: Browser,
    provider: string,
    account: string,
    consent: 'allow' | 'deny',
  ) => authorizeAt(browser, `${gw.url}/auth/oauth/${provider}`, issuer, account, consent);

  async function land(browser: Browser, callback: string): Promise<URL> {
    const response = await browser.go(callback);
    expect(response.status).toBe(302);
    const root = new URL(response.headers.get('location')!);
    expect(root.origin + root.pathname).toBe(`${gw.url}/`);
    return root;
  }

  it('signs in with OAuth + PKCE, creating the user, then recognises the identity', async () => {
    const browser = new Browser();
    const { callback } = await authorize(browser, 'google', 'grace', 'allow');
    const root = await land(browser, callback);
    const session = await exchange(root.searchParams.get('code')!);
    expect(session.body.data?.user).toMatchObject({
      email: 'grace@example.com',
      full_name: 'Grace Hopper',
    });
    const again = await land(
      browser,
      (await authorize(browser, 'google', 'grace', 'allow')).callback,
    );
    const second = await exchange(again.searchParams.get('code')!);
    expect(second.body.data?.user.id).toBe(session.body.data?.user.id);
    expect(
      await gw.prisma.oAuthIdentity.count({ where: { userId: session.body.data!.user.id } }),
    ).toBe(1);
  });

  it('never links an identity to an unconfirmed account; links a confirmed one', async () => {
    // Someone signs up with Linus's address but never confirms it: a squatter, maybe.
    await call(gw.url, 'POST', '/auth/signup', {
      body: { email: 'linus@example.com', password: strongPassword('x') },
    });
    const browser = new Browser();
    const refused = await land(
      browser,
      (await authorize(browser, 'github', 'linus', 'allow')).callback,
    );
    expect(refused.searchParams.get('error')).toBe('unconfirmed_account');
    expect(refused.searchParams.get('code')).toBeNull();
    const squatted = await gw.prisma.user.findUniqueOrThrow({
      where: { email: 'linus@example.com' },
      include: { oauthIdentities: true },
    });
    expect(squatted.oauthIdentities).toEqual([]);

    // Once the address is proven (a confirmation or reset link), the identity links to it.
    await gw.prisma.user.update({
      where: { id: squatted.id },
      data: { emailConfirmedAt: new Date() },
    });
    const root = await land(
      browser,
      (await authorize(browser, 'github', 'linus', 'allow')).callback,
    );
    const session = await exchange(root.searchParams.get('code')!);
    expect(session.body.data?.user.id).toBe(squatted.id);
  });

  it('validates the ID token issuer of the redirect (RFC 9207) and refuses a forged one', async () => {
    const browser = new Browser();
    const { callback } = await authorize(browser, 'google', 'grace', 'allow');
    expect(new URL(callback).searchParams.get('iss')).toBe(issuer);
    const forged = new URL(callback);
    forged.searchParams.set('iss', 'https://evil.example');
    const root = await land(browser, forged.toString());
    expect(root.searchParams.get('error')).toBe('server_error');
    expect(root.searchParams.get('code')).toBeNull();
  });

  it('refuses unverified emails, bad state, a wrong PKCE verifier and denied consent', async () => {
    const unverified = new Browser();
    const r1 = await land(
      unverified,
      (await authorize(unverified, 'google', 'mallory', 'allow')).callback,
    );
    expect(r1.searchParams.get('error')).toBe('unverified_email');
    expect(await gw.prisma.user.count({ where: { email: 'mallory@example.com' } })).toBe(0);

    // A callback whose state this browser did not start (login CSRF).
    const victim = new Browser();
    const { callback } = await authorize(victim, 'google', 'grace', 'allow');
    const attacker = new Browser();
    const r2 = await land(attacker, callback);
    expect(r2.searchParams.get('error')).toBe('invalid_state');
    expect(r2.searchParams.get('code')).toBeNull();
    // A made-up state.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    victim.setCookie('mt_oauth_state', 'forged');
    expect((await land(victim, forged.toString())).searchParams.get('error')).toBe('invalid_state');

    // Flow A's code redeemed with flow B's state, hence B's verifier: the provider refuses.
    const browser = new Browser();
    const a = await authorize(browser, 'google', 'grace', 'allow');
    const b = await authorize(browser, 'google', 'grace', 'allow');
    const swapped = new URL(a.callback);
    swapped.searchParams.set('state', b.state);
    const r3 = await land(browser, swapped.toString());
    expect(r3.searchParams.get('error')).toBe('server_error');
    expect(r3.searchParams.get('code')).toBeNull();

    const denied = new Browser();
    const r4 = await land(denied, (await authorize(denied, 'google', 'grace', 'deny')).callback);
    expect(r4.searchParams.get('error')).toBe('access_denied');
    expect(r4.searchParams.get('code')).toBeNull();
  });
});
