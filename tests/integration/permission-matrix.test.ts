import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Role } from '@memtrail/contracts';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import {
  can,
  PERMISSIONS,
  ROLES,
  type Permission,
} from '../../services/gateway/src/access/permissions.js';
import { issueApiKey } from '../../services/gateway/src/api-keys/api-key.service.js';
import { hashOpaqueToken } from '../../services/gateway/src/auth/opaque-token.js';
import { listRoutes } from '../../services/gateway/src/openapi/routes.js';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';

/**
 * Every role × every user endpoint: a table of routes with the permission each needs, run for a
 * viewer, member, admin and owner of the organisation and for an outsider (the owner of another
 * organisation). A role the permission table allows must get past the guard (any answer but
 * 401/403/404); one it does not must get 403; the outsider must get 404 everywhere, so nothing
 * of another organisation can even be seen to exist. A new /api route missing from the table
 * fails the test.
 */

type Caller = Role | 'outsider';
type Need = Permission | 'member' | 'account';

interface Request {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  route: string;
  need: Need;
  /** Builds the request for one caller; may create what a destructive call consumes. */
  request: (caller: Caller) => Promise<Request>;
}

/** Routes outside the matrix: not a user's (uploads, operators) or open to anyone. */
const OUTSIDE = [
  /^POST \/(api\/(v1\/)?)?upload$/,
  /^GET \/(api\/(v1\/)?)?summary$/,
  /^(GET|POST) \/api\/admin\//,
  /^GET \/api\/invitations\/:token$/,
  // Public projects only; tests/integration/tenant-isolation.test.ts checks it.
  /^GET \/api\/public\/projects\/:id$/,
];

const CALLERS: Caller[] = [...ROLES, 'outsider'];

describe('permission matrix: every role × every endpoint', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  const tokens = {} as Record<Caller, string>;
  const ids = {} as Record<Caller, string>;
  let org: string;
  let project: string;
  let budget: string;
  let counter = 0;
  const unique = (label: string) => `${label}-${(counter += 1)}`;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, { DEPLOYMENT_MODE: 'onprem', QUERY_TIMEOUT_MS: '1000' });
    for (const caller of CALLERS) {
      const session = await signUpOnPrem(gw.url, `${caller}@example.com`);
      tokens[caller] = session.access_token;
      ids[caller] = session.user.id;
    }
    const created = await call<{ data: { organization: { id: string } } }>(
      gw.url,
      'POST',
      '/api/orgs',
      { token: tokens.owner, body: { name: 'Matrix' } },
    );
    org = created.body.data.organization.id;
    for (const role of ['viewer', 'member', 'admin'] as const) {
      await gw.prisma.organizationMember.create({
        data: { organizationId: org, userId: ids[role], role },
      });
    }
    // The outsider owns an organisation and project of their own.
    await call(gw.url, 'POST', '/api/projects', {
      token: tokens.outsider,
      body: { name: 'Elsewhere' },
    });
    project = await freshProject();
    await gw.prisma.target.create({ data: { projectId: project, name: 'board' } });
    budget = (
      await gw.prisma.budget.create({
        data: {
          name: 'Shared',
          limits: { FLASH: 1 },
          target: { connect: { projectId_name: { projectId: project, name: 'board' } } },
        },
      })
    ).id;
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  async function freshProject(): Promise<string> {
    const created = await call<{ data: { project: { id: string } } }>(
      gw.url,
      'POST',
      '/api/projects',
      {
        token: tokens.owner,
        body: { name: unique('Project') },
        headers: { 'x-memtrail-organization': org },
      },
    );
    return created.body.data.project.id;
  }

  /** An organisation where every role of the matrix holds its role (for destructive calls). */
  async function freshOrganization(): Promise<string> {
    const row = await gw.prisma.organization.create({
      data: {
        name: unique('Org'),
        members: {
          create: (['viewer', 'member', 'admin', 'owner'] as const).map((role) => ({
            userId: ids[role],
            role,
          })),
        },
      },
    });
    return row.id;
  }

  async function freshUser(): Promise<string> {
    return (await gw.prisma.user.create({ data: { email: `${unique('u')}@example.com` } })).id;
  }

  const t = () => `/api/${project}/board`;
  const sso = {
    issuer: 'https://login.example.com/realms/matrix',
    client_id: 'memtrail',
    client_secret: 'secret',
    domains: ['example.com'],
  };
  const sha = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

  const rows: Row[] = [
    {
      route: 'GET /api/projects',
      need: 'account',
      request: async () => ({ method: 'GET', path: '/api/projects' }),
    },
    {
      route: 'POST /api/projects',
      need: 'account',
      request: async () => ({
        method: 'POST',
        path: '/api/projects',
        body: { name: unique('Mine') },
      }),
    },
    {
      route: 'POST /api/projects',
      need: 'project:create',
      request: async () => ({
        method: 'POST',
        path: '/api/projects',
        body: { name: unique('InOrg') },
        headers: { 'x-memtrail-organization': org },
      }),
    },
    {
      route: 'PUT /api/projects/:id',
      need: 'project:rename',
      request: async () => ({
        method: 'PUT',
        path: `/api/projects/${project}`,
        body: { name: 'Matrix project' },
      }),
    },
    {
      route: 'DELETE /api/projects/:id',
      need: 'project:delete',
      request: async () => ({ method: 'DELETE', path: `/api/projects/${await freshProject()}` }),
    },
    {
      route: 'POST /api/projects/:id/regenerate-api-key',
      need: 'keys:manage',
      request: async () => ({
        method: 'POST',
        path: `/api/projects/${project}/regenerate-api-key`,
      }),
    },
    {
      route: 'GET /api/projects/:id/members',
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `/api/projects/${project}/members` }),
    },
    {
      route: 'POST /api/projects/:id/members',
      need: 'members:manage',
      request: async () => ({
        method: 'POST',
        path: `/api/projects/${project}/members`,
        body: { email: `${unique('invitee')}@example.com`, role: 'viewer' },
      }),
    },
    {
      route: 'DELETE /api/projects/:id/members/:userId',
      need: 'members:manage',
      request: async () => {
        const userId = await freshUser();
        await gw.prisma.projectMember.create({
          data: { projectId: project, userId, role: 'viewer' },
        });
        return { method: 'DELETE', path: `/api/projects/${project}/members/${userId}` };
      },
    },
    {
      route: 'PUT /api/projects/:id/favourite',
      need: 'project:read',
      request: async () => ({ method: 'PUT', path: `/api/projects/${project}/favourite` }),
    },
    {
      route: 'DELETE /api/projects/:id/favourite',
      need: 'project:read',
      request: async () => ({ method: 'DELETE', path: `/api/projects/${project}/favourite` }),
    },
    {
      route: 'GET /api/projects/:id/keys',
      need: 'keys:create',
      request: async () => ({ method: 'GET', path: `/api/projects/${project}/keys` }),
    },
    {
      route: 'POST /api/projects/:id/keys',
      need: 'keys:create',
      request: async () => ({
        method: 'POST',
        path: `/api/projects/${project}/keys`,
        body: { name: unique('ci'), scope: 'read' },
      }),
    },
    {
      // Someone else's key: revoking it takes keys:manage (own keys: keys:create, tested apart).
      route: 'DELETE /api/projects/:id/keys/:keyId',
      need: 'keys:manage',
      request: async () => {
        const key = await issueApiKey(
          gw.prisma,
          { projectId: project },
          { createdById: ids.owner },
        );
        return { method: 'DELETE', path: `/api/projects/${project}/keys/${key.apiKeyId}` };
      },
    },
    {
      route: 'GET /api/projects/:id/public-access',
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `/api/projects/${project}/public-access` }),
    },
    {
      route: 'PUT /api/projects/:id/public-access',
      need: 'project:rename',
      request: async () => ({
        method: 'PUT',
        path: `/api/projects/${project}/public-access`,
        body: { public: false },
      }),
    },
    {
      route: 'GET /api/:project/targets',
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `/api/${project}/targets` }),
    },
    {
      route: 'GET /api/:project/:target/region-config',
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `${t()}/region-config` }),
    },
    {
      route: 'PUT /api/:project/:target/region-config',
      need: 'project:configure',
      request: async () => ({
        method: 'PUT',
        path: `${t()}/region-config`,
        body: { region_config: {} },
      }),
    },
    {
      route: 'PUT /api/:project/:target/favourite',
      need: 'project:read',
      request: async () => ({ method: 'PUT', path: `${t()}/favourite` }),
    },
    {
      route: 'DELETE /api/:project/:target/favourite',
      need: 'project:read',
      request: async () => ({ method: 'DELETE', path: `${t()}/favourite` }),
    },
    {
      route: 'GET /api/:project/:target/budgets',
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `${t()}/budgets` }),
    },
    {
      route: 'POST /api/:project/:target/budgets',
      need: 'project:configure',
      request: async () => ({
        method: 'POST',
        path: `${t()}/budgets`,
        body: { name: unique('Budget'), limits: { FLASH: 10 } },
      }),
    },
    {
      route: 'PUT /api/:project/:target/budgets/:id',
      need: 'project:configure',
      request: async () => ({
        method: 'PUT',
        path: `${t()}/budgets/${budget}`,
        body: { name: 'Shared', limits: { FLASH: 2 } },
      }),
    },
    {
      route: 'DELETE /api/:project/:target/budgets/:id',
      need: 'project:configure',
      request: async () => {
        const row = await gw.prisma.budget.create({
          data: {
            name: unique('Gone'),
            target: { connect: { projectId_name: { projectId: project, name: 'board' } } },
          },
        });
        return { method: 'DELETE', path: `${t()}/budgets/${row.id}` };
      },
    },
    {
      route: 'GET /api/:project/:target/budgets/status',
      need: 'project:read',
      request: async () => {
        // Budget states are read from the commit's report row, so the commit needs one.
        const found = await gw.prisma.report.count({ where: { commit: { sha } } });
        if (!found) {
          const commit = await gw.prisma.commit.create({ data: { projectId: project, sha } });
          const target = await gw.prisma.target.findUniqueOrThrow({
            where: { projectId_name: { projectId: project, name: 'board' } },
          });
          await gw.prisma.report.create({
            data: {
              targetId: target.id,
              commitId: commit.id,
              kind: 'full',
              payload: Buffer.alloc(0),
              payloadSha256: '0'.repeat(64),
            },
          });
        }
        return { method: 'GET', path: `${t()}/budgets/status?sha=${sha}` };
      },
    },
    ...[
      'heads',
      `commits/${sha}`,
      `commit/${sha}/tree`,
      `commit/${sha}/symbols`,
      `commit/${sha}/export`,
      `commit/${sha}`,
      `commit/${sha}/${sha}/export`,
      `commit/${sha}/${sha}`,
      'series/regions',
      'series/sections',
      'symbols/history?name=main',
      'files/history?path=main.c',
      'growers',
    ].map((read): Row => ({
      route: `GET /api/:project/:target/${read
        .split('?')[0]!
        .replaceAll(`${sha}/${sha}`, ':shaA/:shaB')
        .replaceAll(sha, ':sha')}`,
      need: 'project:read',
      request: async () => ({ method: 'GET', path: `${t()}/${read}` }),
    })),
    {
      route: 'GET /api/orgs',
      need: 'account',
      request: async () => ({ method: 'GET', path: '/api/orgs' }),
    },
    {
      route: 'POST /api/orgs',
      need: 'account',
      request: async () => ({
        method: 'POST',
        path: '/api/orgs',
        body: { name: unique('New org') },
      }),
    },
    {
      route: 'GET /api/orgs/:org',
      need: 'member',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}` }),
    },
    {
      route: 'PUT /api/orgs/:org',
      need: 'org:manage',
      request: async () => ({ method: 'PUT', path: `/api/orgs/${org}`, body: { name: 'Matrix' } }),
    },
    {
      route: 'DELETE /api/orgs/:org',
      need: 'org:manage',
      request: async () => ({ method: 'DELETE', path: `/api/orgs/${await freshOrganization()}` }),
    },
    {
      route: 'GET /api/orgs/:org/members',
      need: 'member',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/members` }),
    },
    {
      route: 'PUT /api/orgs/:org/members/:userId',
      need: 'members:manage',
      request: async () => {
        const userId = await freshUser();
        await gw.prisma.organizationMember.create({
          data: { organizationId: org, userId, role: 'viewer' },
        });
        return {
          method: 'PUT',
          path: `/api/orgs/${org}/members/${userId}`,
          body: { role: 'member' },
        };
      },
    },
    {
      // Removing someone else; anyone may remove themselves (leave), tested apart.
      route: 'DELETE /api/orgs/:org/members/:userId',
      need: 'members:manage',
      request: async () => {
        const userId = await freshUser();
        await gw.prisma.organizationMember.create({
          data: { organizationId: org, userId, role: 'viewer' },
        });
        return { method: 'DELETE', path: `/api/orgs/${org}/members/${userId}` };
      },
    },
    {
      route: 'GET /api/orgs/:org/invitations',
      need: 'members:manage',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/invitations` }),
    },
    {
      route: 'POST /api/orgs/:org/invitations',
      need: 'members:manage',
      request: async () => ({
        method: 'POST',
        path: `/api/orgs/${org}/invitations`,
        body: { email: `${unique('new')}@example.com`, role: 'member' },
      }),
    },
    {
      route: 'DELETE /api/orgs/:org/invitations/:id',
      need: 'members:manage',
      request: async () => ({
        method: 'DELETE',
        path: `/api/orgs/${org}/invitations/${await freshInvitation()}`,
      }),
    },
    {
      route: 'POST /api/orgs/:org/invitations/:id/resend',
      need: 'members:manage',
      request: async () => ({
        method: 'POST',
        path: `/api/orgs/${org}/invitations/${await freshInvitation()}/resend`,
      }),
    },
    {
      route: 'POST /api/invitations/accept',
      need: 'account',
      request: async (caller) => ({
        method: 'POST',
        path: '/api/invitations/accept',
        body: {
          token: await freshInvitationToken(`${caller}@example.com`, await freshOrganization()),
        },
      }),
    },
    {
      route: 'GET /api/orgs/:org/tokens',
      need: 'org:manage',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/tokens` }),
    },
    {
      route: 'POST /api/orgs/:org/tokens',
      need: 'org:manage',
      request: async () => ({
        method: 'POST',
        path: `/api/orgs/${org}/tokens`,
        body: { name: unique('fleet') },
      }),
    },
    {
      route: 'DELETE /api/orgs/:org/tokens/:keyId',
      need: 'org:manage',
      request: async () => {
        const key = await issueApiKey(gw.prisma, { organizationId: org }, { name: unique('old') });
        return { method: 'DELETE', path: `/api/orgs/${org}/tokens/${key.apiKeyId}` };
      },
    },
    {
      route: 'GET /api/orgs/:org/sso',
      need: 'org:manage',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/sso` }),
    },
    {
      route: 'PUT /api/orgs/:org/sso',
      need: 'org:manage',
      request: async () => ({
        method: 'PUT',
        path: `/api/orgs/${org}/sso`,
        body: sso,
      }),
    },
    {
      route: 'DELETE /api/orgs/:org/sso',
      need: 'org:manage',
      request: async () => {
        const fresh = await freshOrganization();
        await gw.prisma.ssoConnection.create({
          data: {
            organizationId: fresh,
            issuer: sso.issuer,
            clientId: 'x',
            clientSecretSealed: 'x',
          },
        });
        return { method: 'DELETE', path: `/api/orgs/${fresh}/sso` };
      },
    },
    {
      route: 'GET /api/orgs/:org/audit',
      need: 'audit:read',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/audit` }),
    },
    {
      route: 'GET /api/orgs/:org/audit/export',
      need: 'audit:read',
      request: async () => ({ method: 'GET', path: `/api/orgs/${org}/audit/export` }),
    },
  ];

  async function freshInvitation(): Promise<string> {
    return (
      await gw.prisma.invitation.findUniqueOrThrow({
        where: {
          tokenHash: hashOpaqueToken(await freshInvitationToken(`${unique('i')}@example.com`, org)),
        },
      })
    ).id;
  }

  async function freshInvitationToken(email: string, organizationId: string): Promise<string> {
    const token = unique('invitation-token');
    await gw.prisma.invitation.create({
      data: {
        organizationId,
        email,
        role: 'viewer',
        tokenHash: hashOpaqueToken(token),
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    return token;
  }

  /** Only the status matters here (some routes answer JSON lines or files). */
  async function send(request: Request, token?: string): Promise<{ status: number }> {
    const response = await fetch(`${gw.url}${request.path}`, {
      method: request.method,
      headers: {
        ...(request.body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
        ...request.headers,
      },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    });
    await response.arrayBuffer();
    return { status: response.status };
  }

  function expected(caller: Caller, need: Need): 'allowed' | 403 | 404 {
    if (need === 'account') return 'allowed';
    if (caller === 'outsider') return 404;
    if (need === 'member') return 'allowed';
    return can(caller, need) ? 'allowed' : 403;
  }

  it('lists every user route of the gateway', () => {
    const listed = new Set(rows.map((r) => r.route));
    const missing = listRoutes(gw.app as NestExpressApplication)
      .map((r) => `${r.method} ${r.path}`)
      .filter((route) => route.startsWith('GET /api') || /^(POST|PUT|DELETE) \/api/.test(route))
      .filter((route) => !OUTSIDE.some((pattern) => pattern.test(route)))
      .filter((route) => !listed.has(route));
    expect(missing).toEqual([]);
  });

  it.each(CALLERS)('enforces the permission table for a caller who is %s', async (caller) => {
    const outcomes: Array<{ route: string; need: Need; status: number | string }> = [];
    const wanted: typeof outcomes = [];
    for (const row of rows) {
      const request = await row.request(caller);
      const result = await send(request, tokens[caller]);
      const outcome = expected(caller, row.need);
      const got =
        outcome === 'allowed' && ![401, 403, 404].includes(result.status)
          ? 'allowed'
          : result.status;
      outcomes.push({ route: row.route, need: row.need, status: got });
      wanted.push({ route: row.route, need: row.need, status: outcome });
    }
    expect(outcomes).toEqual(wanted);
  });

  it('refuses everything without a session', async () => {
    for (const row of rows) {
      const request = await row.request('viewer');
      const result = await send(request);
      expect({ route: row.route, status: result.status }).toEqual({
        route: row.route,
        status: 401,
      });
    }
  });

  it('lets a project override raise or lower the organisation role on that project only', async () => {
    const other = await freshProject();
    await gw.prisma.projectMember.create({
      data: { projectId: project, userId: ids.viewer, role: 'admin' },
    });
    await gw.prisma.projectMember.create({
      data: { projectId: other, userId: ids.admin, role: 'viewer' },
    });
    try {
      const rename = (who: Caller, id: string) =>
        call(gw.url, 'PUT', `/api/projects/${id}`, {
          token: tokens[who],
          body: { name: 'Renamed' },
        });
      expect((await rename('viewer', project)).status).toBe(200);
      expect((await rename('viewer', other)).status).toBe(403);
      expect((await rename('admin', other)).status).toBe(403);
      expect((await rename('admin', project)).status).toBe(200);
    } finally {
      await gw.prisma.projectMember.deleteMany({
        where: { userId: { in: [ids.viewer, ids.admin] } },
      });
    }
  });

  it('lets a member revoke the keys they created, and anyone leave', async () => {
    const created = await call<{ data: { key: { id: string } } }>(
      gw.url,
      'POST',
      `/api/projects/${project}/keys`,
      { token: tokens.member, body: { name: 'mine' } },
    );
    const revoked = await call(
      gw.url,
      'DELETE',
      `/api/projects/${project}/keys/${created.body.data.key.id}`,
      {
        token: tokens.member,
      },
    );
    expect(revoked.status).toBe(200);
    const leaver = await freshOrganization();
    expect(
      (
        await call(gw.url, 'DELETE', `/api/orgs/${leaver}/members/${ids.viewer}`, {
          token: tokens.viewer,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(gw.url, 'GET', `/api/orgs/${leaver}`, { token: tokens.viewer })).status,
    ).toBe(404);
  });

  it('keeps an owner: admins cannot grant, change or remove owners; the last owner stays', async () => {
    const target = await freshOrganization();
    const asAdmin = (method: string, path: string, body?: unknown) =>
      call(gw.url, method, path, { token: tokens.admin, body });
    expect(
      (await asAdmin('PUT', `/api/orgs/${target}/members/${ids.member}`, { role: 'owner' })).status,
    ).toBe(403);
    expect(
      (await asAdmin('PUT', `/api/orgs/${target}/members/${ids.owner}`, { role: 'viewer' })).status,
    ).toBe(403);
    expect((await asAdmin('DELETE', `/api/orgs/${target}/members/${ids.owner}`)).status).toBe(403);
    expect(
      (
        await asAdmin('POST', `/api/orgs/${target}/invitations`, {
          email: 'boss@example.com',
          role: 'owner',
        })
      ).status,
    ).toBe(403);
    const lastOwner = await call(gw.url, 'DELETE', `/api/orgs/${target}/members/${ids.owner}`, {
      token: tokens.owner,
    });
    expect(lastOwner.status).toBe(400);
    expect(lastOwner.body).toMatchObject({ error: 'An organization must keep at least one owner' });
  });

  it('prints the same permission table in docs/operations.md', async () => {
    const docs = await readFile(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
    const printed = docs
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map(cells)
      .filter(([first]) => /^`[a-z]+:[a-z]+`$/.test(first!));
    expect(printed).toEqual(
      Object.entries(PERMISSIONS).map(([name, p]) => [
        `\`${name}\``,
        ...ROLES.map((role) => (can(role, name as Permission) ? '✓' : '')),
        p.what,
      ]),
    );
  });

  it('writes the table as the issue describes it: a member neither renames nor configures', () => {
    const allowed = (role: Role) =>
      Object.keys(PERMISSIONS).filter((p) => can(role, p as Permission));
    expect(allowed('viewer')).toEqual(['project:read']);
    expect(allowed('member')).toEqual(['project:read', 'keys:create']);
    expect(allowed('admin')).not.toContain('project:delete');
    expect(allowed('admin')).not.toContain('org:manage');
    expect(allowed('owner')).toEqual(Object.keys(PERMISSIONS));
  });
});
