import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { AUTH_MESSAGES, type AuthResponse, type AuthSession } from '@memtrail/contracts';
import { createIsolatedStores, freePort, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  strongPassword,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { authorize, Browser, startOidcProvider } from './support/oidc.js';

/** People at the organisation's identity provider; tests change their groups between sign-ins. */
const ACCOUNTS: Record<string, Record<string, unknown>> = {
  ada: { email: 'ada@corp.example', email_verified: true, name: 'Ada', groups: ['firmware'] },
  dave: { email: 'dave@corp.example', email_verified: true, name: 'Dave', groups: ['firmware'] },
  eve: { email: 'eve@other.example', email_verified: true, name: 'Eve', groups: ['fw-admins'] },
};

describe('SSO through an organisation’s OpenID provider: JIT membership and group mapping', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let idp: Server;
  let issuer: string;
  let owner: string;
  let org: string;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    const gatewayPort = await freePort();
    const client = {
      client_id: 'memtrail-corp',
      client_secret: 'corp-secret-0123456789abcdef',
      redirect_uris: [`http://127.0.0.1:${gatewayPort}/auth/sso/callback`],
    };
    ({ issuer, server: idp } = await startOidcProvider(await freePort(), [client], ACCOUNTS));
    gw = await startGateway(stores, { DEPLOYMENT_MODE: 'onprem' }, gatewayPort);
    owner = (await signUpOnPrem(gw.url, 'owner@corp.example')).access_token;
    const created = await call<{ data: { organization: { id: string } } }>(
      gw.url,
      'POST',
      '/api/orgs',
      { token: owner, body: { name: 'Corp' } },
    );
    org = created.body.data.organization.id;
    const sso = await call<{ data: { sso: Record<string, unknown> } }>(
      gw.url,
      'PUT',
      `/api/orgs/${org}/sso`,
      {
        token: owner,
        body: {
          issuer,
          client_id: client.client_id,
          client_secret: client.client_secret,
          domains: ['corp.example'],
          group_roles: [
            { group: 'firmware', role: 'member' },
            { group: 'fw-admins', role: 'admin' },
          ],
          default_role: null,
        },
      },
    );
    expect(sso.status).toBe(200);
    expect(sso.body.data.sso).toMatchObject({
      client_secret_set: true,
      redirect_uri: client.redirect_uris[0],
    });
    expect(JSON.stringify(sso.body)).not.toContain(client.client_secret);
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise((resolve) => idp?.close(resolve));
    await stores?.cleanup();
  });

  /** Signs `account` in through SSO; returns where the gateway sent the browser back. */
  async function signIn(account: string, start = `email=${account}@corp.example`) {
    const browser = new Browser();
    const { callback } = await authorize(browser, `${gw.url}/auth/sso?${start}`, issuer, account);
    const response = await browser.go(callback);
    expect(response.status).toBe(302);
    return new URL(response.headers.get('location')!);
  }

  async function session(root: URL): Promise<AuthSession> {
    expect(root.searchParams.get('error_description')).toBeNull();
    const exchanged = await call<AuthResponse<AuthSession>>(gw.url, 'POST', '/auth/token', {
      body: { code: root.searchParams.get('code') },
    });
    expect(exchanged.status).toBe(200);
    return exchanged.body.data!;
  }

  const membership = async (email: string) =>
    gw.prisma.organizationMember.findFirst({
      where: { organizationId: org, user: { email } },
      select: { role: true, source: true },
    });

  const actions = async () =>
    (
      await gw.prisma.auditEvent.findMany({
        where: { organizationId: org },
        orderBy: { id: 'asc' },
        select: { action: true, details: true },
      })
    ).map((e) => e.action);

  it('creates the user and their membership on first sign-in, with the role of their group', async () => {
    const ada = await session(await signIn('ada'));
    expect(ada.user.email).toBe('ada@corp.example');
    expect(await membership('ada@corp.example')).toEqual({ role: 'member', source: 'sso' });
    const orgs = await call<{ data: { organizations: Array<{ id: string; role: string }> } }>(
      gw.url,
      'GET',
      '/api/orgs',
      { token: ada.access_token },
    );
    expect(orgs.body.data.organizations).toEqual([
      expect.objectContaining({ id: org, role: 'member' }),
    ]);
    expect(await actions()).toEqual(
      expect.arrayContaining(['sso.updated', 'member.joined', 'sso.signed_in']),
    );
  });

  it('follows group changes at each sign-in, and removes a user left in no mapped group', async () => {
    ACCOUNTS.ada!.groups = ['firmware', 'fw-admins'];
    await session(await signIn('ada'));
    expect(await membership('ada@corp.example')).toEqual({ role: 'admin', source: 'sso' });

    ACCOUNTS.ada!.groups = ['firmware'];
    await session(await signIn('ada'));
    expect(await membership('ada@corp.example')).toEqual({ role: 'member', source: 'sso' });

    ACCOUNTS.ada!.groups = ['marketing'];
    const refused = await signIn('ada');
    expect(refused.searchParams.get('error')).toBe('access_denied');
    expect(refused.searchParams.get('code')).toBeNull();
    expect(await membership('ada@corp.example')).toBeNull();
    const removed = await gw.prisma.auditEvent.findFirst({
      where: { organizationId: org, action: 'member.removed' },
    });
    expect(removed?.details).toMatchObject({ by: 'sso', role: 'member', groups: ['marketing'] });
    const changed = await gw.prisma.auditEvent.findMany({
      where: { organizationId: org, action: 'member.role_changed' },
      orderBy: { id: 'asc' },
    });
    expect(changed.map((e) => e.details)).toEqual([
      expect.objectContaining({ from: 'member', to: 'admin' }),
      expect.objectContaining({ from: 'admin', to: 'member' }),
    ]);
    ACCOUNTS.ada!.groups = ['firmware'];
  });

  it('signs in only addresses of the organisation’s domains', async () => {
    const root = await signIn('eve', `organization=${org}`);
    expect(root.searchParams.get('error')).toBe('foreign_domain');
    expect(await gw.prisma.user.count({ where: { email: 'eve@other.example' } })).toBe(0);
    const unknown = await fetch(`${gw.url}/auth/sso?email=someone@nowhere.example`, {
      redirect: 'manual',
    });
    expect(unknown.status).toBe(404);
  });

  it('never links the provider’s identity to an account whose address was not confirmed', async () => {
    // Someone registered Dave's address with a password before Dave ever signed in.
    await signUpOnPrem(gw.url, 'dave@corp.example', strongPassword('squat'));
    const root = await signIn('dave');
    expect(root.searchParams.get('error')).toBe('unconfirmed_account');
    expect(await membership('dave@corp.example')).toBeNull();
    expect(await gw.prisma.oAuthIdentity.count({ where: { email: 'dave@corp.example' } })).toBe(0);
  });

  it('refuses password sign-in for the domain once SSO is enforced', async () => {
    await signUpOnPrem(gw.url, 'carol@corp.example', strongPassword('c'));
    const login = () =>
      call(gw.url, 'POST', '/auth/login', {
        body: { email: 'carol@corp.example', password: strongPassword('c') },
      });
    expect((await login()).status).toBe(200);
    const current = await call<{ data: { sso: Record<string, unknown> } }>(
      gw.url,
      'GET',
      `/api/orgs/${org}/sso`,
      { token: owner },
    );
    const enforced = await call(gw.url, 'PUT', `/api/orgs/${org}/sso`, {
      token: owner,
      body: { ...current.body.data.sso, enforced: true },
    });
    expect(enforced.status).toBe(200);
    const refused = await login();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: AUTH_MESSAGES.ssoRequired });
    // SSO itself still works, and the stored secret was kept.
    await session(await signIn('ada'));
  });

  it('claims a domain only for an owner’s own domain, and for one organisation', async () => {
    const other = await signUpOnPrem(gw.url, 'boss@else.example');
    const created = await call<{ data: { organization: { id: string } } }>(
      gw.url,
      'POST',
      '/api/orgs',
      { token: other.access_token, body: { name: 'Else' } },
    );
    const put = (domains: string[]) =>
      call(gw.url, 'PUT', `/api/orgs/${created.body.data.organization.id}/sso`, {
        token: other.access_token,
        body: { issuer, client_id: 'x', client_secret: 'y', domains },
      });
    expect((await put(['corp.example'])).status).toBe(409);
    const foreign = await put(['gmail.com']);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({
      error: 'An owner of the organization must have an email address at gmail.com to claim it',
    });
    expect((await put(['else.example'])).status).toBe(200);
  });
});
