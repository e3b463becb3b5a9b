import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type {
  Budget,
  BudgetStatusData,
  MemoryReport,
  ProjectWithApiKey,
  SummaryResponse,
  UploadEnvelope,
  UploadResponseData,
} from '@memtrail/contracts';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

const upload = (sha: string, branch: string): UploadEnvelope => ({
  metadata: {
    git: { commit_hash: sha, branch_name: branch },
    target_name: 'stm32',
    identical: false,
  },
  memory_analysis: sample,
});

describe('budgets: managed by project members, evaluated on every upload', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let token: string;
  let strangerToken: string;
  let project: ProjectWithApiKey;
  let base: string;

  const post = (path: string, body: unknown, key: string) =>
    call<Record<string, unknown>>(gw.url, 'POST', path, {
      body,
      headers: { authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      UPLOAD_RATE_LIMIT_PER_MINUTE: '7',
    });
    token = (await signUpOnPrem(gw.url, 'owner@example.com')).access_token;
    strangerToken = (await signUpOnPrem(gw.url, 'stranger@example.com')).access_token;
    const created = await call<{ data: { project: ProjectWithApiKey } }>(
      gw.url,
      'POST',
      '/api/projects',
      {
        token,
        body: { name: 'Budgeted', description: '' },
      },
    );
    project = created.body.data.project;
    // The target exists once something was uploaded to it.
    expect((await post('/upload', upload('a'.repeat(40), 'main'), project.api_key)).status).toBe(
      200,
    );
    base = `/api/${project.id}/stm32/budgets`;
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  it('creates, lists, updates and deletes budgets', async () => {
    const created = await call<{ data: { budget: Budget } }>(gw.url, 'POST', base, {
      token,
      body: { name: 'Flash budget', limits: { FLASH: 400 } },
    });
    expect(created.status).toBe(201);
    const budget = created.body.data.budget;
    expect(budget).toMatchObject({
      name: 'Flash budget',
      branch_pattern: null,
      limits: { FLASH: 400 },
    });

    const updated = await call<{ data: { budget: Budget } }>(
      gw.url,
      'PUT',
      `${base}/${budget.id}`,
      {
        token,
        body: {
          name: 'Flash budget',
          branch_pattern: 'release/*',
          limits: { FLASH: 400, RAM: 1000 },
        },
      },
    );
    expect(updated.body.data.budget).toMatchObject({
      branch_pattern: 'release/*',
      limits: { FLASH: 400, RAM: 1000 },
    });

    const listed = await call<{ data: { budgets: Budget[] } }>(gw.url, 'GET', base, { token });
    expect(listed.body.data.budgets.map((b) => b.name)).toEqual(['Flash budget']);

    const duplicate = await call(gw.url, 'POST', base, {
      token,
      body: { name: 'Flash budget', limits: { RAM: 1 } },
    });
    expect(duplicate.status).toBe(409);

    expect((await call(gw.url, 'DELETE', `${base}/${budget.id}`, { token })).status).toBe(200);
    expect((await call(gw.url, 'DELETE', `${base}/${budget.id}`, { token })).status).toBe(404);
  });

  it('alerts only uploads on branches the budget applies to', async () => {
    await call(gw.url, 'POST', base, {
      token,
      body: { name: 'Release flash', branch_pattern: 'release/*', limits: { FLASH: 400 } },
    });
    const onMain = await post('/upload', upload('b'.repeat(40), 'main'), project.api_key);
    expect((onMain.body.data as { alerts: { budgets: unknown[] } }).alerts.budgets).toEqual([]);
    const onRelease = await post('/upload', upload('c'.repeat(40), 'release/1.2'), project.api_key);
    expect((onRelease.body.data as { alerts: { budgets: unknown[] } }).alerts.budgets).toEqual([
      {
        budget_name: 'Release flash',
        exceeded_regions: ['FLASH'],
        current_usage: { FLASH: 413 },
        limits: { FLASH: 400 },
        exceeded_by: { FLASH: 13 },
      },
    ]);
  });

  it('evaluates a pattern that backtracking regexes choke on against a 500-character branch', async () => {
    const pattern = '*a'.repeat(36);
    const created = await call(gw.url, 'POST', base, {
      token,
      body: { name: 'Many stars', branch_pattern: pattern, limits: { FLASH: 400 } },
    });
    expect(created.status).toBe(201);
    const uploaded = await post(
      '/upload',
      upload('e'.repeat(40), 'a'.repeat(500)),
      project.api_key,
    );
    expect(uploaded.status).toBe(200);
    const alerts = (uploaded.body.data as { alerts: { budgets: { budget_name: string }[] } })
      .alerts;
    expect(alerts.budgets.map((b) => b.budget_name)).toContain('Many stars');
    const missed = await post(
      '/upload',
      upload('f'.repeat(40), `${'a'.repeat(499)}b`),
      project.api_key,
    );
    const missedAlerts = (missed.body.data as { alerts: { budgets: { budget_name: string }[] } })
      .alerts;
    expect(missedAlerts.budgets.map((b) => b.budget_name)).not.toContain('Many stars');
  });

  it('refuses bad budgets with the reason and strangers with 404', async () => {
    const cases: [unknown, string][] = [
      [{ limits: { FLASH: 1 } }, 'Budget name is required'],
      [{ name: 'x', limits: {} }, 'limits needs at least one region'],
      [{ name: 'x', limits: { FLASH: -1 } }, 'limits.FLASH must be a whole number of bytes'],
      [{ name: 'x', limits: { FLASH: 1 }, branch_pattern: 7 }, 'branch_pattern must be a string'],
      [
        { name: 'x', limits: { FLASH: 1 }, branch_pattern: '*'.repeat(201) },
        'branch_pattern cannot exceed 200 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const result = await call(gw.url, 'POST', base, { token, body });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({ status: 'error', error: message });
    }
    expect((await call(gw.url, 'GET', base, { token: strangerToken })).status).toBe(404);
    expect(
      (await call(gw.url, 'GET', `/api/${project.id}/no-such-target/budgets`, { token })).status,
    ).toBe(404);
    expect((await call(gw.url, 'GET', base)).status).toBe(401);
  });

  it("checks a budget's regions against the target's regions", async () => {
    const wrong = await call(gw.url, 'POST', base, {
      token,
      body: { name: 'Wrong region', limits: { FLASH: 480 * 1024, SRAM: 1024 } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: 'Budget region SRAM is not a region of target stm32 (its regions: CCMRAM, FLASH, RAM)',
    });
  });

  it("states every budget at a commit: whether it applies and each region's use", async () => {
    const status = await call<{ data: BudgetStatusData }>(
      gw.url,
      'GET',
      `${base}/status?sha=${'c'.repeat(40)}`,
      { token },
    );
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ commit_sha: 'c'.repeat(40), branch: 'release/1.2' });
    const release = status.body.data.budgets.find((b) => b.budget.name === 'Release flash')!;
    expect(release).toMatchObject({
      applies: true,
      exceeded: true,
      regions: [{ region: 'FLASH', display_name: 'FLASH', limit: 400, used: 413, exceeded_by: 13 }],
    });
    const onMain = await call<{ data: BudgetStatusData }>(
      gw.url,
      'GET',
      `${base}/status?sha=${'b'.repeat(40)}`,
      { token },
    );
    expect(onMain.body.data.budgets.find((b) => b.budget.name === 'Release flash')).toMatchObject({
      applies: false,
      exceeded: false,
    });
    expect(
      (await call(gw.url, 'GET', `${base}/status?sha=${'0123'.repeat(10)}`, { token })).status,
    ).toBe(404);
    expect((await call(gw.url, 'GET', `${base}/status`, { token })).status).toBe(400);
  });

  it('answers uploads and PR summaries with regions as the region configuration shows them', async () => {
    const config = {
      version: 2,
      regions: { FLASH: { display_name: 'Main flash' }, CCMRAM: { hidden: true } },
    };
    const saved = await call(gw.url, 'PUT', `/api/${project.id}/stm32/region-config`, {
      token,
      body: { region_config: config },
    });
    expect(saved.status).toBe(200);
    const sha = 'f'.repeat(40);
    const child = upload(sha, 'release/1.3');
    child.metadata.git.base_commit_hash = 'c'.repeat(40);
    const answer = await post('/upload', child, project.api_key);
    const data = answer.body.data as UploadResponseData;
    expect(Object.keys(data.changes_summary)).toEqual(['Main flash', 'RAM']);
    expect(data.alerts.budgets).toEqual([
      {
        budget_name: 'Release flash',
        exceeded_regions: ['Main flash'],
        current_usage: { 'Main flash': 413 },
        limits: { 'Main flash': 400 },
        exceeded_by: { 'Main flash': 13 },
      },
    ]);
    const summary = await call<SummaryResponse>(gw.url, 'GET', `/summary?commit=${sha}`, {
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(summary.body.data.targets[0]!.alerts.budgets[0]!.exceeded_regions).toEqual([
      'Main flash',
    ]);
  });

  it('limits uploads per key and minute with 429 and Retry-After', async () => {
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const result = await post('/upload', upload('d'.repeat(40), 'main'), project.api_key);
      if (result.status === 429) limited = result;
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited!.body).toMatchObject({ success: false, type: 'TooManyRequestsError' });
  });
});
