import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Redis } from 'ioredis';
import {
  VALIDATION_MESSAGES,
  type CreatedProjectData,
  type MemoryReport,
  type UploadEnvelope,
} from '@memtrail/contracts';
import { QueueNames } from '@memtrail/queue';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { ApiKeyService } from '../../services/gateway/src/api-keys/api-key.service.js';
import {
  call,
  signUpOnPrem,
  startGateway,
  TEST_JWT_SECRET as SECRET,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { startReadServices, type ReadServices } from './support/read-services.js';

function jwt(header: { alg: string; typ: string }, payload: object, secret = SECRET): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${part(header)}.${part(payload)}`;
  const digest = header.alg === 'HS512' ? 'sha512' : 'sha256';
  return `${body}.${createHmac(digest, secret).update(body).digest('base64url')}`;
}

describe('tenant isolation, tokens and project inputs', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let alice: string;
  let bob: string;
  let aliceId: string;
  let project: CreatedProjectData['project'];

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      PROJECT_DELETE_SYNC_MAX_REPORTS: '1',
    });
    const a = await signUpOnPrem(gw.url, 'alice@example.com');
    alice = a.access_token;
    aliceId = a.user.id;
    bob = (await signUpOnPrem(gw.url, 'bob@example.com')).access_token;
    const created = await call<{ data: CreatedProjectData }>(gw.url, 'POST', '/api/projects', {
      token: alice,
      body: { name: 'Alpha board', description: 'first' },
    });
    expect(created.status).toBe(201);
    project = created.body.data.project;
    await gw.prisma.target.create({ data: { projectId: project.id, name: 'nrf52/debug' } });
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  it('shows the key once, then only masked', async () => {
    expect(project.api_key).toMatch(/^mt_[0-9a-f]{16}_/);
    const list = await call<{ data: { projects: Array<Record<string, unknown>> } }>(
      gw.url,
      'GET',
      '/api/projects',
      { token: alice },
    );
    expect(list.body.data.projects).toEqual([
      expect.objectContaining({
        id: project.id,
        role: 'owner',
        api_key_masked: project.api_key_masked,
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(project.api_key.slice(20));
  });

  it("answers 404 for every route of another user's project", async () => {
    const t = encodeURIComponent('nrf52/debug');
    const routes: Array<[string, string, unknown?]> = [
      ['PUT', `/api/projects/${project.id}`, { name: 'Taken over' }],
      ['DELETE', `/api/projects/${project.id}`],
      ['POST', `/api/projects/${project.id}/regenerate-api-key`],
      ['GET', `/api/projects/${project.id}/members`],
      ['POST', `/api/projects/${project.id}/members`, { email: 'bob@example.com' }],
      ['DELETE', `/api/projects/${project.id}/members/${aliceId}`],
      ['GET', `/api/${project.id}/targets`],
      ['GET', `/api/${project.id}/${t}/region-config`],
      [
        'PUT',
        `/api/${project.id}/${t}/region-config`,
        { region_config: { FLASH: { hidden: true } } },
      ],
    ];
    for (const [method, path, body] of routes) {
      const result = await call(gw.url, method, path, { token: bob, body });
      expect({
        method,
        path,
        status: result.status,
        type: (result.body as { type?: string }).type,
      }).toEqual({
        method,
        path,
        status: 404,
        type: 'NotFoundError',
      });
    }
    const list = await call<{ data: { projects: unknown[] } }>(gw.url, 'GET', '/api/projects', {
      token: bob,
    });
    expect(list.body.data.projects).toEqual([]);
    // Nothing changed for the owner.
    const row = await gw.prisma.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(row.name).toBe('Alpha board');
    const config = await gw.prisma.target.findFirstOrThrow({ where: { projectId: project.id } });
    expect(config.regionConfig).toEqual({});
  });

  it('keeps API keys to their project and upload keys out of user routes', async () => {
    const keys = gw.app.get(ApiKeyService);
    const other = await call<{ data: CreatedProjectData }>(gw.url, 'POST', '/api/projects', {
      token: bob,
      body: { name: 'Bravo' },
    });
    expect(await keys.verify(project.api_key)).toMatchObject({ projectId: project.id });
    expect(await keys.verify(other.body.data.project.api_key)).toMatchObject({
      projectId: other.body.data.project.id,
    });
    for (const key of [project.api_key, other.body.data.project.api_key]) {
      const asUser = await call(gw.url, 'GET', `/api/${project.id}/targets`, { token: key });
      expect(asUser.status).toBe(403);
      expect(asUser.body).toMatchObject({ error: expect.stringContaining('upload scope') });
      const write = await call(gw.url, 'PUT', `/api/projects/${project.id}`, {
        token: key,
        body: { name: 'Keyed' },
      });
      expect(write.status).toBe(401);
    }
  });

  it('rejects expired, tampered, alg none, other-algorithm and foreign-key tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Alice's session: tokens name the session they belong to.
    const { sid } = JSON.parse(Buffer.from(alice.split('.')[1]!, 'base64url').toString()) as {
      sid: string;
    };
    const claims = {
      sub: aliceId,
      email: 'alice@example.com',
      sid,
      iss: 'memtrail',
      aud: 'memtrail',
    };
    const valid = jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now, exp: now + 600 });
    expect((await call(gw.url, 'GET', '/api/projects', { token: valid })).status).toBe(200);
    const [h, p] = valid.split('.');
    const bad = {
      expired: jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 7200, exp: now - 3600 }),
      tampered: `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'x', exp: now + 600 })).toString('base64url')}.${valid.split('.')[2]}`,
      none: `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`,
      otherKey: jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, exp: now + 600 },
        'another-secret-another-secret-another',
      ),
      // The key a gateway without JWT_SECRET used to derive: computable by anyone.
      derivedFromDatabaseUrl: jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now, exp: now + 600 },
        createHash('sha256').update(`memtrail-dev-jwt:${stores.databaseUrl}`).digest('hex'),
      ),
      noSession: jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, sid: undefined, iat: now, exp: now + 600 },
      ),
      otherAudience: jwt(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, aud: 'elsewhere', exp: now + 600 },
      ),
      // The right secret, another algorithm: only HS256 is taken.
      otherAlgorithm: jwt({ alg: 'HS512', typ: 'JWT' }, { ...claims, iat: now, exp: now + 600 }),
    };
    for (const [kind, token] of Object.entries(bad)) {
      const result = await call(gw.url, 'GET', '/api/projects', { token });
      expect({ kind, status: result.status, body: result.body }).toEqual({
        kind,
        status: 401,
        body: { status: 'error', type: 'UnauthorizedError', error: 'Unauthorized', data: null },
      });
    }
  });

  it('never starts without an explicit strong JWT_SECRET, in any NODE_ENV', async () => {
    for (const NODE_ENV of ['development', 'test', 'production']) {
      await expect(startGateway(stores, { JWT_SECRET: '', NODE_ENV })).rejects.toThrow(
        'JWT_SECRET (unset): JWT_SECRET must be set to a random value of at least 32 characters',
      );
    }
    const weak = 'change-me-this-development-secret-is-not-safe';
    const refused = startGateway(stores, { JWT_SECRET: weak });
    await expect(refused).rejects.toThrow('JWT_SECRET (45 characters): JWT_SECRET is a published');
    await expect(refused).rejects.not.toThrow(weak);
  });

  it('rejects bad project and region inputs with the spec messages, writing nothing', async () => {
    const before = await gw.prisma.project.count();
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/api/projects', { name: 'x' }, VALIDATION_MESSAGES.projectName],
      ['POST', '/api/projects', { name: 'Bad/name' }, VALIDATION_MESSAGES.projectName],
      ['POST', '/api/projects', {}, VALIDATION_MESSAGES.projectName],
      [
        'POST',
        '/api/projects',
        { name: 'Okay', description: 'd'.repeat(501) },
        VALIDATION_MESSAGES.projectDescription,
      ],
      [
        'PUT',
        `/api/projects/${project.id}`,
        { name: 'n'.repeat(101) },
        VALIDATION_MESSAGES.projectName,
      ],
      [
        'PUT',
        `/api/projects/${project.id}`,
        { description: 'd'.repeat(501) },
        VALIDATION_MESSAGES.projectDescription,
      ],
      ['POST', `/api/projects/${project.id}/members`, { email: 'nope' }, VALIDATION_MESSAGES.email],
      [
        'PUT',
        `/api/${project.id}/nrf52%2Fdebug/region-config`,
        { region_config: { FLASH: { kind: 'rom' } } },
        'Region FLASH: kind must be flash, ram or other',
      ],
      [
        'PUT',
        `/api/${project.id}/nrf52%2Fdebug/region-config`,
        { region_config: { RAM: { limit: -1 } } },
        'Region RAM: limit must be a non-negative integer number of bytes or null',
      ],
      [
        'PUT',
        `/api/${project.id}/nrf52%2Fdebug/region-config`,
        { region_config: [] },
        'region_config must be an object keyed by region name',
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const result = await call(gw.url, method, path, { token: alice, body });
      expect({ path, body, status: result.status, response: result.body }).toEqual({
        path,
        body,
        status: 400,
        response: { status: 'error', type: 'BadRequestError', error: message, data: null },
      });
    }
    expect(await gw.prisma.project.count()).toBe(before);
    const row = await gw.prisma.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(row).toMatchObject({ name: 'Alpha board', description: 'first' });
  });

  it('updates, stores region config, shares with a member, and guards by role', async () => {
    const t = `/api/${project.id}/${encodeURIComponent('nrf52/debug')}/region-config`;
    const config = {
      FLASH: { display_name: 'Flash', kind: 'flash', limit: 524288 },
      CCM: { hidden: true },
    };
    expect(
      (await call(gw.url, 'PUT', t, { token: alice, body: { region_config: config } })).status,
    ).toBe(200);
    const read = await call<{ data: unknown }>(gw.url, 'GET', t, { token: alice });
    // The target was created without uploads, so no report has shown a region yet.
    expect(read.body.data).toEqual({ region_config: config, regions: [] });

    // Bob is outside Alice's organisation: adding him by email invites him (mailed link).
    const added = await call<{ data: { invitation: { email: string; role: string } | null } }>(
      gw.url,
      'POST',
      `/api/projects/${project.id}/members`,
      { token: alice, body: { email: 'BOB@example.com' } },
    );
    expect(added.status).toBe(201);
    expect(added.body.data.invitation).toMatchObject({ email: 'bob@example.com', role: 'member' });
    expect((await call(gw.url, 'GET', `/api/${project.id}/targets`, { token: bob })).status).toBe(
      404,
    );
    const bobId = (await gw.prisma.user.findUniqueOrThrow({ where: { email: 'bob@example.com' } }))
      .id;
    await gw.prisma.projectMember.create({
      data: { projectId: project.id, userId: bobId, role: 'member' },
    });
    const targets = await call<{ data: { targets: unknown[] } }>(
      gw.url,
      'GET',
      `/api/${project.id}/targets`,
      { token: bob },
    );
    expect(targets.body.data.targets).toEqual([
      { name: 'nrf52/debug', region_config: config, favourite: false },
    ]);
    // A member reads but neither renames, configures, deletes nor regenerates.
    for (const [method, path, body] of [
      ['PUT', `/api/projects/${project.id}`, { name: 'Alpha v2' }],
      ['PUT', t, { region_config: {} }],
      ['DELETE', `/api/projects/${project.id}`],
      ['POST', `/api/projects/${project.id}/regenerate-api-key`],
    ] as const) {
      const refused = await call(gw.url, method, path, { token: bob, body });
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
    }
    // Alice's role comes from her organisation: there is no project override to remove.
    const noOverride = await call(
      gw.url,
      'DELETE',
      `/api/projects/${project.id}/members/${aliceId}`,
      { token: alice },
    );
    expect(noOverride.status).toBe(400);
  });

  it('regenerates the key (old one dead at once, with a warning) and deletes projects with their rows', async () => {
    const keys = gw.app.get(ApiKeyService);
    const regenerated = await call<{ data: { api_key: string; warning: string } }>(
      gw.url,
      'POST',
      `/api/projects/${project.id}/regenerate-api-key`,
      { token: alice },
    );
    expect(await keys.verify(project.api_key)).toBeNull();
    expect(regenerated.body.data.warning).toContain('Revoked 1 upload key(s) (Default)');
    const key = regenerated.body.data.api_key;
    expect(await keys.verify(key)).toMatchObject({ projectId: project.id });

    // Two reports: above PROJECT_DELETE_SYNC_MAX_REPORTS=1, so the rows go in the background.
    const target = await gw.prisma.target.findFirstOrThrow({ where: { projectId: project.id } });
    for (const sha of ['a1', 'b2']) {
      const commit = await gw.prisma.commit.create({ data: { projectId: project.id, sha } });
      await gw.prisma.report.create({
        data: {
          targetId: target.id,
          commitId: commit.id,
          kind: 'full',
          payload: gzipSync('{}'),
          payloadSha256: sha,
        },
      });
    }
    const deleted = await call<{ data: { background: boolean } }>(
      gw.url,
      'DELETE',
      `/api/projects/${project.id}`,
      { token: alice },
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.background).toBe(true);
    expect(await keys.verify(key)).toBeNull();
    expect((await call(gw.url, 'GET', `/api/${project.id}/targets`, { token: alice })).status).toBe(
      404,
    );
    await eventually(
      () => gw.prisma.project.count({ where: { id: project.id } }),
      (count) => count === 0,
    );
    expect(await gw.prisma.report.count()).toBe(0);
    expect(await gw.prisma.commit.count({ where: { projectId: project.id } })).toBe(0);
    expect(await gw.prisma.apiKey.count({ where: { projectId: project.id } })).toBe(0);
    // The ClickHouse purge is announced for the worker that owns ClickHouse writes.
    const redis = new Redis(stores.redisUrl);
    try {
      const job = await redis.hget(
        `${stores.queuePrefix}:${QueueNames.projectClickHousePurges}:project-${project.id}`,
        'data',
      );
      expect(JSON.parse(job!)).toEqual({ projectId: project.id });
    } finally {
      redis.disconnect();
    }
  });
});

describe('tenant isolation of public projects: switching between public and private', () => {
  const sample = JSON.parse(
    readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
  ) as MemoryReport;
  const [c1, c2] = ['1'.repeat(40), '2'.repeat(40)];
  const symbol = sample.symbols[0]!;
  const target = 'stm32/debug';
  let stores: IsolatedStores;
  let services: ReadServices;
  let gw: Gateway;
  let alice: string;
  let bob: string;
  let open: CreatedProjectData['project'];
  let closed: CreatedProjectData['project'];

  const t = encodeURIComponent(target);
  /** Every read of a project's data, as the dashboard, commit, compare and symbol pages make them. */
  const reads = (id: string) => [
    `/api/${id}/targets`,
    `/api/${id}/${t}/heads`,
    `/api/${id}/${t}/commits/${c2}?count=50&offset=0&only_changed=true`,
    `/api/${id}/${t}/commit/${c2}?include_symbols=true`,
    `/api/${id}/${t}/commit/${c2}/tree`,
    `/api/${id}/${t}/commit/${c2}/export?format=csv`,
    `/api/${id}/${t}/commit/${c1}/${c2}?all_symbols=true`,
    `/api/${id}/${t}/commit/${c1}/${c2}/export?format=json`,
    `/api/${id}/${t}/series/regions?branch=main`,
    `/api/${id}/${t}/series/sections?branch=main`,
    `/api/${id}/${t}/symbols/history?name=${encodeURIComponent(symbol.name)}&branch=main`,
    `/api/${id}/${t}/files/history?path=${encodeURIComponent(symbol.source_file!)}&branch=main`,
    `/api/${id}/${t}/growers?base=${c1}&head=${c2}`,
    `/api/${id}/${t}/budgets/status?sha=${c2}`,
  ];
  /** What a public project still keeps to its members (and owners). */
  const kept = (id: string): Array<[string, string, unknown?]> => [
    ['GET', `/api/${id}/${t}/region-config`],
    ['PUT', `/api/${id}/${t}/region-config`, { region_config: {} }],
    ['GET', `/api/${id}/${t}/budgets`],
    ['POST', `/api/${id}/${t}/budgets`, { name: 'b', limits: { FLASH: 1 } }],
    ['GET', `/api/projects/${id}/members`],
    ['GET', `/api/projects/${id}/public-access`],
    ['PUT', `/api/projects/${id}/public-access`, { public: false }],
    ['PUT', `/api/projects/${id}`, { name: 'Taken over' }],
    ['POST', `/api/projects/${id}/regenerate-api-key`],
    ['DELETE', `/api/projects/${id}`],
  ];
  const get = async (path: string, token?: string) => {
    const response = await fetch(`${gw.url}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: response.status, body: await response.text() };
  };
  const setPublic = async (value: boolean) => {
    const result = await call(gw.url, 'PUT', `/api/projects/${open.id}/public-access`, {
      token: alice,
      body: { public: value },
    });
    expect(result.status).toBe(200);
  };

  /** Signed out: 401 as for a missing project; another user: 404 as for a missing project. */
  async function expectClosed(id: string): Promise<void> {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [i, path] of reads(id).entries()) {
      expect({ path, ...(await get(path)) }).toEqual({ path, ...(await get(reads(missing)[i]!)) });
      expect({
        path,
        signedOut: (await get(path)).status,
        other: (await get(path, bob)).status,
      }).toEqual({ path, signedOut: 401, other: 404 });
    }
    expect((await get(`/api/public/projects/${id}`)).status).toBe(404);
    expect((await get(`/badge/${id}/${t}.svg?region=FLASH`)).status).toBe(404);
  }

  beforeAll(async () => {
    stores = await createIsolatedStores();
    services = await startReadServices(stores);
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(services.queryPort),
    });
    alice = (await signUpOnPrem(gw.url, 'alice@example.com')).access_token;
    bob = (await signUpOnPrem(gw.url, 'bob@example.com')).access_token;
    const create = async (name: string) =>
      (
        await call<{ data: CreatedProjectData }>(gw.url, 'POST', '/api/projects', {
          token: alice,
          body: { name },
        })
      ).body.data.project;
    open = await create('Open board');
    closed = await create('Closed board');
    for (const project of [open, closed]) {
      for (const [commit, parent] of [
        [c1, null],
        [c2, c1],
      ] as const) {
        const body: UploadEnvelope = {
          metadata: {
            git: {
              commit_hash: commit,
              ...(parent ? { base_commit_hash: parent } : { parent_commit_hash: null }),
              branch_name: 'main',
              commit_timestamp: parent ? '2026-11-02T10:00:00Z' : '2026-11-01T10:00:00Z',
            },
            target_name: target,
            identical: false,
          },
          memory_analysis: sample,
        };
        const stored = await call(gw.url, 'POST', '/upload', {
          body,
          headers: { authorization: `Bearer ${project.api_key}` },
        });
        expect(stored.status).toBe(200);
      }
    }
    await eventually(
      () => gw.prisma.report.count({ where: { status: { not: 'ingested' } } }),
      (pending) => pending === 0,
      { timeoutMs: 60_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await services?.close();
    await stores?.cleanup();
  });

  it('keeps a private project unreadable signed out and by non-members', async () => {
    await expectClosed(open.id);
  });

  it('lets anyone read a public project, exactly as its members do, and nothing more', async () => {
    await setPublic(true);
    for (const path of reads(open.id)) {
      const member = await get(path, alice);
      expect({ path, status: member.status }).toEqual({ path, status: 200 });
      expect({ path, ...(await get(path)) }).toEqual({ path, ...member });
      expect({ path, ...(await get(path, bob)) }).toEqual({ path, ...member });
    }
    const info = await get(`/api/public/projects/${open.id}`);
    expect(JSON.parse(info.body)).toEqual({
      status: 'success',
      type: null,
      error: null,
      data: {
        project: { id: open.id, name: 'Open board', description: null, repository: null },
      },
    });
    for (const [method, path, body] of kept(open.id)) {
      const signedOut = await call(gw.url, method, path, { body });
      const other = await call(gw.url, method, path, { token: bob, body });
      expect({ method, path, signedOut: signedOut.status, other: other.status }).toEqual({
        method,
        path,
        signedOut: 401,
        other: 404,
      });
    }
    // A bad session is refused, not read as signed out; the project is no one else's.
    expect((await get(reads(open.id)[1]!, 'not-a-token')).status).toBe(401);
    const list = await call<{ data: { projects: unknown[] } }>(gw.url, 'GET', '/api/projects', {
      token: bob,
    });
    expect(list.body.data.projects).toEqual([]);
    const row = await gw.prisma.project.findUniqueOrThrow({ where: { id: open.id } });
    expect(row.name).toBe('Open board');
    // The owner's other project stays closed.
    await expectClosed(closed.id);
  });

  it('closes a project again at once when it is made private', async () => {
    await setPublic(false);
    await expectClosed(open.id);
    for (const path of reads(open.id)) {
      expect({ path, status: (await get(path, alice)).status }).toEqual({ path, status: 200 });
    }
  });
});

describe('tenant isolation between organisations, whatever the role', () => {
  let stores: IsolatedStores;
  let gw: Gateway;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, { DEPLOYMENT_MODE: 'onprem' });
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  it('lets no role of one organisation reach anything of another', async () => {
    // Organisation B, with a project, a target, a budget, a key, a token and an invitation.
    const owner = await signUpOnPrem(gw.url, 'b-owner@example.com');
    const asB = { token: owner.access_token };
    const orgB = (
      await call<{ data: { organization: { id: string } } }>(gw.url, 'POST', '/api/orgs', {
        ...asB,
        body: { name: 'B' },
      })
    ).body.data.organization.id;
    const projectB = (
      await call<{ data: { project: { id: string } } }>(gw.url, 'POST', '/api/projects', {
        ...asB,
        body: { name: 'B board', organization_id: orgB },
      })
    ).body.data.project.id;
    await gw.prisma.target.create({ data: { projectId: projectB, name: 'b' } });
    const budget = await gw.prisma.budget.create({
      data: {
        name: 'B budget',
        limits: { FLASH: 1 },
        target: { connect: { projectId_name: { projectId: projectB, name: 'b' } } },
      },
    });
    const key = await call<{ data: { key: { id: string } } }>(
      gw.url,
      'POST',
      `/api/projects/${projectB}/keys`,
      { ...asB, body: { name: 'b-ci' } },
    );
    const token = await call<{ data: { key: { id: string } } }>(
      gw.url,
      'POST',
      `/api/orgs/${orgB}/tokens`,
      { ...asB, body: { name: 'b-fleet' } },
    );
    const invitation = await call<{ data: { invitation: { id: string } } }>(
      gw.url,
      'POST',
      `/api/orgs/${orgB}/invitations`,
      { ...asB, body: { email: 'someone@example.com' } },
    );
    const ownerId = owner.user.id;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/orgs/${orgB}`],
      ['PUT', `/api/orgs/${orgB}`, { name: 'Taken' }],
      ['DELETE', `/api/orgs/${orgB}`],
      ['GET', `/api/orgs/${orgB}/members`],
      ['PUT', `/api/orgs/${orgB}/members/${ownerId}`, { role: 'viewer' }],
      ['DELETE', `/api/orgs/${orgB}/members/${ownerId}`],
      ['GET', `/api/orgs/${orgB}/invitations`],
      ['POST', `/api/orgs/${orgB}/invitations`, { email: 'x@example.com' }],
      ['DELETE', `/api/orgs/${orgB}/invitations/${invitation.body.data.invitation.id}`],
      ['GET', `/api/orgs/${orgB}/tokens`],
      ['POST', `/api/orgs/${orgB}/tokens`, { name: 'stolen' }],
      ['DELETE', `/api/orgs/${orgB}/tokens/${token.body.data.key.id}`],
      ['GET', `/api/orgs/${orgB}/sso`],
      ['GET', `/api/orgs/${orgB}/audit`],
      ['GET', `/api/orgs/${orgB}/audit/export`],
      ['PUT', `/api/projects/${projectB}`, { name: 'Taken' }],
      ['GET', `/api/projects/${projectB}/members`],
      ['GET', `/api/projects/${projectB}/keys`],
      ['DELETE', `/api/projects/${projectB}/keys/${key.body.data.key.id}`],
      ['PUT', `/api/projects/${projectB}/favourite`],
      ['GET', `/api/${projectB}/targets`],
      ['GET', `/api/${projectB}/b/budgets`],
      ['DELETE', `/api/${projectB}/b/budgets/${budget.id}`],
      ['DELETE', `/api/projects/${projectB}`],
    ];
    // Organisation A: one user of each role.
    const owners = await signUpOnPrem(gw.url, 'a-owner@example.com');
    const orgA = (
      await call<{ data: { organization: { id: string } } }>(gw.url, 'POST', '/api/orgs', {
        token: owners.access_token,
        body: { name: 'A' },
      })
    ).body.data.organization.id;
    const callers = [owners.access_token];
    for (const role of ['admin', 'member', 'viewer'] as const) {
      const session = await signUpOnPrem(gw.url, `a-${role}@example.com`);
      await gw.prisma.organizationMember.create({
        data: { organizationId: orgA, userId: session.user.id, role },
      });
      callers.push(session.access_token);
    }
    for (const [index, caller] of callers.entries()) {
      for (const [method, path, body] of routes) {
        const result = await call(gw.url, method, path, { token: caller, body });
        expect({ caller: index, method, path, status: result.status }).toEqual({
          caller: index,
          method,
          path,
          status: 404,
        });
      }
      const projects = await call<{ data: { projects: Array<{ id: string }> } }>(
        gw.url,
        'GET',
        '/api/projects',
        { token: caller, headers: { 'x-memtrail-organization': orgB } },
      );
      expect(projects.body.data.projects).toEqual([]);
      const created = await call(gw.url, 'POST', '/api/projects', {
        token: caller,
        body: { name: 'Planted', organization_id: orgB },
      });
      expect(created.status).toBe(404);
    }
    // Nothing of B changed.
    expect(await gw.prisma.project.count({ where: { organizationId: orgB } })).toBe(1);
    expect(await gw.prisma.organizationMember.count({ where: { organizationId: orgB } })).toBe(1);
    expect(await gw.prisma.apiKey.count({ where: { revokedAt: { not: null } } })).toBe(0);
  });
});
