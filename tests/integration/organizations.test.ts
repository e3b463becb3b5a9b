import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type {
  ApiKeyInfo,
  AuditEvent,
  AuditEventsData,
  Invitation,
  MemoryReport,
  Project,
  Target,
} from '@memtrail/contracts';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { AuditRetentionService } from '../../services/gateway/src/audit/audit-retention.service.js';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { buildCli, cli } from './support/cli-and-gateway.js';
import { linkIn, startMailbox } from './support/mailbox.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

function envelope(commit: string, target = 'stm32') {
  return {
    metadata: {
      git: {
        commit_hash: commit,
        base_commit_hash: null,
        branch_name: 'main',
        commit_message: 'build',
        commit_timestamp: '2026-11-01T00:00:00Z',
        author_name: 'Dev',
        author_email: 'dev@example.com',
      },
      target_name: target,
      analysis_version: '1.2.9',
    },
    memory_analysis: sample,
  };
}

const sha = (n: number) => n.toString(16).padStart(40, '0');

/**
 * Organisations end to end against real Postgres, Redis and a real SMTP server: invitations by
 * mail, named keys and their rotation, read keys, organisation CI tokens, the audit log
 * (filters, pages, export, retention) and the projects and targets lists at scale.
 */
describe('organisations: invitations, keys, CI tokens, audit log and lists', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let owner: string;
  let org: string;
  let project: { id: string; api_key: string };
  let commits = 0;

  const asOwner = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(gw.url, method, path, {
      token: owner,
      body,
      headers: { 'x-memtrail-organization': org },
    });

  async function upload(key: string, headers: Record<string, string> = {}, target = 'stm32') {
    commits += 1;
    const response = await fetch(`${gw.url}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'user-agent': 'memtrail-test/1',
        ...headers,
      },
      body: gzipSync(JSON.stringify(envelope(sha(commits), target))),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const mailTo = async (address: string, count: number) => {
    const messages = await eventually(
      async () => mailbox.messages.filter((m) => m.includes(`To: ${address}`)),
      (found) => found.length >= count,
    );
    return messages[count - 1]!;
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    mailbox = await startMailbox();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
    });
    owner = (await signUpOnPrem(gw.url, 'owner@example.com')).access_token;
    org = (
      await call<{ data: { organization: { id: string } } }>(gw.url, 'POST', '/api/orgs', {
        token: owner,
        body: { name: 'Fleet' },
      })
    ).body.data.organization.id;
    project = (
      await asOwner<{ data: { project: Project & { api_key: string } } }>('POST', '/api/projects', {
        name: 'Alpha',
      })
    ).body.data.project;
  });

  afterAll(async () => {
    await gw?.close();
    await new Promise<void>((resolve) => mailbox?.server.close(() => resolve()));
    await stores?.cleanup();
  });

  it('mails invitations alike whether or not the address has an account; accepting joins', async () => {
    const registered = await signUpOnPrem(gw.url, 'reg@example.com');
    const invite = (email: string) =>
      asOwner<{ data: { invitation: Invitation } }>('POST', `/api/orgs/${org}/invitations`, {
        email,
        role: 'member',
      });
    const a = await invite('reg@example.com');
    const b = await invite('New@Example.com');
    const shape = (r: typeof a) => ({
      status: r.status,
      keys: Object.keys(r.body.data.invitation).sort(),
      invitation: {
        ...r.body.data.invitation,
        id: 'x',
        email: 'x',
        expires_at: 'x',
        sent_at: 'x',
        created_at: 'x',
      },
    });
    expect(shape(a)).toEqual(shape(b));
    expect(b.body.data.invitation).toMatchObject({ email: 'new@example.com', status: 'pending' });

    const tokenOf = async (email: string, n = 1) =>
      decodeURIComponent(
        linkIn(await mailTo(email, n), '/invitations/').split('/invitations/')[1]!,
      );
    const regToken = await tokenOf('reg@example.com');
    const newToken = await tokenOf('new@example.com');
    const preview = await call<{ data: Record<string, unknown> }>(
      gw.url,
      'GET',
      `/api/invitations/${encodeURIComponent(newToken)}`,
    );
    expect(preview.body.data).toMatchObject({
      organization_name: 'Fleet',
      project_name: null,
      role: 'member',
      email: 'new@example.com',
    });

    // The invitee signs up through the link, then accepts; the link proved the address.
    const newcomer = await signUpOnPrem(gw.url, 'new@example.com');
    const accept = (token: string, session: string) =>
      call(gw.url, 'POST', '/api/invitations/accept', { token: session, body: { token } });
    expect((await accept(regToken, newcomer.access_token)).status).toBe(403);
    expect((await accept(newToken, newcomer.access_token)).status).toBe(200);
    expect((await accept(newToken, newcomer.access_token)).status).toBe(404);
    expect((await accept(regToken, registered.access_token)).status).toBe(200);
    const members = await asOwner<{
      data: { members: Array<{ email: string; role: string; source: string }> };
    }>('GET', `/api/orgs/${org}/members`);
    expect(members.body.data.members.map((m) => [m.email, m.role, m.source])).toEqual([
      ['owner@example.com', 'owner', 'created'],
      ['new@example.com', 'member', 'invitation'],
      ['reg@example.com', 'member', 'invitation'],
    ]);
    const user = await gw.prisma.user.findUniqueOrThrow({ where: { email: 'new@example.com' } });
    expect(user.emailConfirmedAt).not.toBeNull();
  });

  it('resends with a new link (the old one stops working), revokes, and expires', async () => {
    const created = await asOwner<{ data: { invitation: Invitation } }>(
      'POST',
      `/api/orgs/${org}/invitations`,
      { email: 'late@example.com', role: 'viewer' },
    );
    const id = created.body.data.invitation.id;
    const first = linkIn(await mailTo('late@example.com', 1), '/invitations/');
    expect((await asOwner('POST', `/api/orgs/${org}/invitations/${id}/resend`)).status).toBe(200);
    const second = linkIn(await mailTo('late@example.com', 2), '/invitations/');
    expect(second).not.toBe(first);
    const preview = (link: string) =>
      call(gw.url, 'GET', `/api/invitations/${link.split('/invitations/')[1]}`);
    expect((await preview(first)).status).toBe(404);
    expect((await preview(second)).status).toBe(200);
    await gw.prisma.invitation.update({
      where: { id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await preview(second)).status).toBe(410);
    const revoked = await asOwner<{ data: { invitation: Invitation } }>(
      'DELETE',
      `/api/orgs/${org}/invitations/${id}`,
    );
    expect(revoked.body.data.invitation.status).toBe('revoked');
    expect((await preview(second)).status).toBe(404);
  });

  it('gives a project invitation a role on that project only', async () => {
    const sent = await asOwner<{ data: { invitation: Invitation | null } }>(
      'POST',
      `/api/projects/${project.id}/members`,
      { email: 'solo@example.com', role: 'viewer' },
    );
    expect(sent.body.data.invitation).toMatchObject({ project_id: project.id, role: 'viewer' });
    const link = linkIn(await mailTo('solo@example.com', 1), '/invitations/');
    const solo = await signUpOnPrem(gw.url, 'solo@example.com');
    const token = decodeURIComponent(link.split('/invitations/')[1]!);
    expect(
      (
        await call(gw.url, 'POST', '/api/invitations/accept', {
          token: solo.access_token,
          body: { token },
        })
      ).status,
    ).toBe(200);
    const as = (path: string) => call(gw.url, 'GET', path, { token: solo.access_token });
    expect((await as(`/api/${project.id}/targets`)).status).toBe(200);
    expect((await as(`/api/orgs/${org}`)).status).toBe(404);
    const listed = await call<{ data: { projects: Project[] } }>(gw.url, 'GET', '/api/projects', {
      token: solo.access_token,
    });
    expect(listed.body.data.projects.map((p) => [p.name, p.role, p.organization_name])).toEqual([
      ['Alpha', 'viewer', 'Fleet'],
    ]);
  });

  it('rotates keys without downtime; read keys read; last use and new addresses are recorded', async () => {
    const created = await asOwner<{ data: { key: ApiKeyInfo; api_key: string } }>(
      'POST',
      `/api/projects/${project.id}/keys`,
      { name: 'ci-2026', scope: 'upload' },
    );
    const fresh = created.body.data.api_key;
    expect((await upload(project.api_key)).status).toBe(200);
    expect((await upload(fresh)).status).toBe(200);
    const keys = await eventually(
      async () =>
        (await asOwner<{ data: { keys: ApiKeyInfo[] } }>('GET', `/api/projects/${project.id}/keys`))
          .body.data.keys,
      (list) => list.every((k) => k.last_used_at !== null),
    );
    expect(keys.map((k) => [k.name, k.scope, k.last_user_agent, k.last_ip, k.created_by])).toEqual([
      [
        'ci-2026',
        'upload',
        'memtrail-test/1',
        expect.stringContaining('127.0.0.1'),
        'owner@example.com',
      ],
      [
        'Default',
        'upload',
        'memtrail-test/1',
        expect.stringContaining('127.0.0.1'),
        'owner@example.com',
      ],
    ]);
    expect(JSON.stringify(keys)).not.toContain(fresh.slice(20));

    const old = keys.find((k) => k.name === 'Default')!;
    expect((await asOwner('DELETE', `/api/projects/${project.id}/keys/${old.id}`)).status).toBe(
      200,
    );
    expect((await upload(project.api_key)).status).toBe(401);
    expect((await upload(fresh)).status).toBe(200);

    const read = (
      await asOwner<{ data: { api_key: string } }>('POST', `/api/projects/${project.id}/keys`, {
        name: 'dashboard',
        scope: 'read',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      })
    ).body.data.api_key;
    const targets = await call<{ data: { targets: Target[] } }>(
      gw.url,
      'GET',
      `/api/${project.id}/targets`,
      {
        token: read,
      },
    );
    expect(targets.body.data.targets.map((t) => t.name)).toEqual(['stm32']);
    expect((await upload(read)).status).toBe(403);
    expect(
      (
        await call(gw.url, 'PUT', `/api/projects/${project.id}`, {
          token: read,
          body: { name: 'x' },
        })
      ).status,
    ).toBe(401);

    const events = await eventually(
      async () =>
        (await asOwner<{ data: AuditEventsData }>('GET', `/api/orgs/${org}/audit?action=api_key.`))
          .body.data.events,
      (list) => list.filter((e) => e.action === 'api_key.used_from_new_address').length >= 2,
    );
    expect(new Set(events.map((e) => e.action))).toEqual(
      new Set(['api_key.created', 'api_key.revoked', 'api_key.used_from_new_address']),
    );
  });

  it('lets an organisation CI token upload to any project it names, and nowhere else', async () => {
    const beta = (
      await asOwner<{ data: { project: Project } }>('POST', '/api/projects', { name: 'Beta' })
    ).body.data.project;
    const token = (
      await asOwner<{ data: { api_key: string } }>('POST', `/api/orgs/${org}/tokens`, {
        name: 'fleet',
      })
    ).body.data.api_key;
    expect((await upload(token, { 'x-memtrail-project': 'Beta' }, 'esp32')).status).toBe(200);
    expect((await upload(token, { 'x-memtrail-project': project.id }, 'esp32')).status).toBe(200);
    const stored = await gw.prisma.target.findMany({
      where: { name: 'esp32' },
      select: { projectId: true },
      orderBy: { projectId: 'asc' },
    });
    expect(stored.map((t) => t.projectId).sort()).toEqual([beta.id, project.id].sort());
    const missing = await upload(token);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: expect.stringContaining('x-memtrail-project') });
    const elsewhere = await signUpOnPrem(gw.url, 'elsewhere@example.com');
    const foreign = (
      await call<{ data: { project: Project } }>(gw.url, 'POST', '/api/projects', {
        token: elsewhere.access_token,
        body: { name: 'Foreign' },
      })
    ).body.data.project;
    expect((await upload(token, { 'x-memtrail-project': foreign.id })).status).toBe(403);
    const tokens = await asOwner<{ data: { keys: ApiKeyInfo[] } }>(
      'GET',
      `/api/orgs/${org}/tokens`,
    );
    expect(tokens.body.data.keys.map((k) => k.name)).toEqual(['fleet']);
  });

  it('lets the CLI upload with a CI token to the project named by --project', async () => {
    const token = (
      await asOwner<{ data: { api_key: string } }>('POST', `/api/orgs/${org}/tokens`, {
        name: 'cli',
      })
    ).body.data.api_key;
    buildCli();
    const repo = await mkdtemp(join(tmpdir(), 'memtrail-org-cli-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      execFileSync(
        'git',
        [
          '-c',
          'user.email=ci@example.com',
          '-c',
          'user.name=CI',
          'commit',
          '-q',
          '--allow-empty',
          '-m',
          'fw',
        ],
        { cwd: repo },
      );
      const env = { PATH: process.env.PATH, MEMTRAIL_API_KEY: token, MEMTRAIL_API_URL: gw.url };
      const run = (args: string[]) =>
        cli(['upload', '--build-failed', '--target-name', 'cli-board', ...args], repo, env);
      const named = await run(['--project', 'Alpha']);
      expect({ code: named.code, stderr: named.stderr }).toMatchObject({ code: 0 });
      const unnamed = await run([]);
      expect(unnamed.code).not.toBe(0);
      expect(unnamed.stderr).toContain('x-memtrail-project');
      const fromEnv = await cli(
        ['upload', '--build-failed', '--target-name', 'cli-env-board'],
        repo,
        {
          ...env,
          MEMTRAIL_PROJECT: project.id,
        },
      );
      expect(fromEnv.code).toBe(0);
    } finally {
      await rm(repo, { recursive: true, force: true });
    }
    const targets = await gw.prisma.target.findMany({
      where: { name: { in: ['cli-board', 'cli-env-board'] } },
      select: { projectId: true },
    });
    expect(targets.map((t) => t.projectId)).toEqual([project.id, project.id]);
  });

  it('filters, pages and exports the audit log, and deletes events past retention', async () => {
    await call(gw.url, 'POST', '/auth/login', {
      body: { email: 'owner@example.com', password: 'Str0ng!Pass' },
    });
    const all: AuditEvent[] = [];
    let before: string | null = '';
    while (before !== null) {
      const page: { data: AuditEventsData } = (
        await asOwner<{ data: AuditEventsData }>(
          'GET',
          `/api/orgs/${org}/audit?limit=5${before ? `&before=${before}` : ''}`,
        )
      ).body;
      all.push(...page.data.events);
      before = page.data.next_before;
    }
    const ids = all.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'organization.created',
        'project.created',
        'member.invited',
        'invitation.accepted',
        'invitation.resent',
        'invitation.revoked',
        'ci_token.created',
        'auth.signed_in',
      ]),
    );
    const byProject = await asOwner<{ data: AuditEventsData }>(
      'GET',
      `/api/orgs/${org}/audit?project=${project.id}&actor=OWNER@example`,
    );
    expect(byProject.body.data.events.length).toBeGreaterThan(0);
    for (const e of byProject.body.data.events) {
      expect([e.project_id, e.actor.label]).toEqual([project.id, 'owner@example.com']);
    }
    const bad = await asOwner('GET', `/api/orgs/${org}/audit?from=yesterday`);
    expect(bad.status).toBe(400);

    const exported = await fetch(`${gw.url}/api/orgs/${org}/audit/export?action=api_key.`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(exported.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = (await exported.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditEvent);
    expect(lines.map((e) => e.id)).toEqual(
      all.filter((e) => e.action.startsWith('api_key.')).map((e) => e.id),
    );

    const days = (n: number) => new Date(Date.now() - n * 86_400_000);
    await gw.prisma.organization.update({ where: { id: org }, data: { auditRetentionDays: 30 } });
    await gw.prisma.auditEvent.createMany({
      data: [
        { organizationId: org, actorType: 'system', action: 'test.old', createdAt: days(40) },
        { organizationId: org, actorType: 'system', action: 'test.recent', createdAt: days(20) },
      ],
    });
    expect(await gw.app.get(AuditRetentionService).sweep()).toBe(1);
    const left = await gw.prisma.auditEvent.findMany({
      where: { action: { startsWith: 'test.' } },
      select: { action: true },
    });
    expect(left).toEqual([{ action: 'test.recent' }]);
  });

  it('lists projects and targets with search, favourites first and pages', async () => {
    const owned = await gw.prisma.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    await gw.prisma.project.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        name: `Board ${String(i).padStart(2, '0')}`,
        organizationId: org,
        ownerId: owned.id,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      })),
    });
    const board07 = await gw.prisma.project.findFirstOrThrow({ where: { name: 'Board 07' } });
    expect((await asOwner('PUT', `/api/projects/${board07.id}/favourite`)).status).toBe(200);
    type Page = { data: { projects: Project[]; pagination: { total: number } } };
    const first = await asOwner<Page>('GET', '/api/projects?limit=10&offset=0');
    expect(first.body.data.pagination).toEqual({ total: 32, offset: 0, limit: 10 });
    expect(first.body.data.projects[0]).toMatchObject({ name: 'Board 07', favourite: true });
    const pages = [first.body.data.projects];
    for (const offset of [10, 20, 30]) {
      pages.push(
        (await asOwner<Page>('GET', `/api/projects?limit=10&offset=${offset}`)).body.data.projects,
      );
    }
    const names = pages.flat().map((p) => p.name);
    expect(names).toHaveLength(32);
    expect(new Set(names).size).toBe(32);
    const search = await asOwner<Page>('GET', '/api/projects?search=board 1&limit=50');
    expect(search.body.data.projects.map((p) => p.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Board 1${i}`),
    );
    const favourites = await asOwner<Page>('GET', '/api/projects?favourites=true&limit=5');
    expect(favourites.body.data.projects.map((p) => p.name)).toEqual(['Board 07']);
    expect((await asOwner('GET', '/api/projects?search=<script>')).status).toBe(400);
    // The spec's call, without paging, still answers the whole list.
    const whole = await call<{ data: { projects: Project[]; pagination?: unknown } }>(
      gw.url,
      'GET',
      '/api/projects',
      { token: owner },
    );
    expect(whole.body.data.pagination).toBeUndefined();
    expect(whole.body.data.projects).toHaveLength(32);

    await gw.prisma.target.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({ projectId: board07.id, name: `t-${i}` })),
    });
    await asOwner('PUT', `/api/${board07.id}/t-13/favourite`);
    type Targets = { data: { targets: Target[]; pagination: { total: number } } };
    const t = await asOwner<Targets>('GET', `/api/${board07.id}/targets?limit=5&search=t-1`);
    expect(t.body.data.pagination.total).toBe(11);
    expect(t.body.data.targets.map((x) => [x.name, x.favourite])).toEqual([
      ['t-13', true],
      ['t-1', false],
      ['t-10', false],
      ['t-11', false],
      ['t-12', false],
    ]);
  });
});
