import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { INestApplication } from '@nestjs/common';
import { loadConfig } from '@memtrail/config';
import type {
  MemoryReport,
  SummaryResponse,
  UploadEnvelope,
  UploadResponseData,
} from '@memtrail/contracts';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import { createRedisConnection, createReportsQueue, type ReportsQueue } from '@memtrail/queue';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import type { Redis } from 'ioredis';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { GatewayConfig } from '../../services/gateway/src/config.js';
import {
  TEST_JWT_SECRET,
  TEST_QUERY_SECRET,
} from '../../services/gateway/test/support/gateway-harness.js';
import { createGatewayApp } from '../../services/gateway/src/create-app.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

const sha = (n: number) => n.toString(16).padStart(40, '0');

/** The envelope exactly as MemBrowse 1.2.9 sends it (compat spec §2.5). */
function envelope(
  commit: string,
  base: string | null,
  report: MemoryReport = sample,
  extra: object = {},
): UploadEnvelope {
  return {
    metadata: {
      git: {
        commit_hash: commit,
        base_commit_hash: base,
        branch_name: 'main',
        repository: 'sample-fw',
        commit_message: `commit ${commit.slice(-4)}`,
        commit_timestamp: new Date(
          Date.UTC(2026, 10, 1) + parseInt(commit.slice(-6), 16) * 60_000,
        ).toISOString(),
        author_name: 'Dev',
        author_email: 'dev@example.com',
        tags: [],
        pr_number: null,
        pr_name: null,
        pr_author_name: null,
        pr_author_email: null,
      },
      repository: 'sample-fw',
      target_name: 'stm32-sample',
      analysis_version: '1.2.9',
      architecture: 'ARM',
      toolchain: 'gcc-12.2.1',
      identical: false,
      ...extra,
    },
    memory_analysis: report,
  };
}

function grow(report: MemoryReport, region: string, bytes: number): MemoryReport {
  const copy = structuredClone(report);
  const r = copy.memory_layout[region]!;
  r.used_size += bytes;
  r.free_size -= bytes;
  r.sections[0]!.size += bytes;
  return copy;
}

describe('POST /upload', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let gateway: INestApplication;
  let queue: ReportsQueue;
  let redis: Redis;
  let baseUrl: string;
  let apiKey: string;
  let otherKey: string;
  let projectId: string;

  async function post(
    body: unknown,
    options: {
      key?: string | null;
      path?: string;
      gzip?: boolean;
      raw?: Buffer;
      encoding?: string;
    } = {},
  ) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    const key = options.key === undefined ? apiKey : options.key;
    if (key) headers.Authorization = `Bearer ${key}`;
    let payload: Buffer = options.raw ?? Buffer.from(JSON.stringify(body));
    if (options.gzip) payload = gzipSync(payload);
    const encoding = options.encoding ?? (options.gzip ? 'gzip' : undefined);
    if (encoding) headers['Content-Encoding'] = encoding;
    const response = await fetch(`${baseUrl}${options.path ?? '/upload'}`, {
      method: 'POST',
      headers,
      body: payload,
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as {
        success: boolean;
        data: UploadResponseData;
        error: string;
        type: string;
      },
    };
  }

  const reportCount = () => prisma.report.count();
  const metrics = new ServiceMetrics('gateway');
  /** Uploads timed so far in each step of the acknowledgement. */
  const phaseCounts = async () =>
    Object.fromEntries(
      (await metrics.uploadPhaseDuration.get()).values
        .filter((v) => v.metricName === 'memtrail_upload_phase_seconds_count')
        .map((v) => [v.labels.phase, v.value]),
    );

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    ({ projectId, apiKey } = await createProjectWithKey(prisma, owner.id, 'Sample'));
    ({ apiKey: otherKey } = await createProjectWithKey(prisma, owner.id, 'Other'));
    const config = loadConfig(GatewayConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      QUEUE_PREFIX: stores.queuePrefix,
      CORE_URL: 'https://memtrail.example',
      JWT_SECRET: TEST_JWT_SECRET,
      QUERY_SECRET: TEST_QUERY_SECRET,
      UPLOAD_MAX_BYTES: String(8 * 1024 * 1024),
      UPLOAD_RATE_LIMIT_PER_MINUTE: '0',
      UPLOAD_SYMBOL_CHANGES: 'true',
    });
    gateway = await createGatewayApp(config, false, metrics);
    await gateway.listen(0, '127.0.0.1');
    baseUrl = await gateway.getUrl();
    redis = createRedisConnection(stores.redisUrl);
    queue = createReportsQueue({ connection: redis, prefix: stores.queuePrefix });
  });

  afterAll(async () => {
    await gateway?.close();
    await queue?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
    await stores?.cleanup();
  });

  it('accepts the MemBrowse envelope, stores the payload and enqueues its ingestion', async () => {
    const { status, body } = await post(envelope(sha(1), null));
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      project_id: projectId,
      target_name: 'stm32-sample',
      commit_sha: sha(1),
      is_overwritten: false,
      parent_sha: null,
      changes_summary: {},
      alerts: { budgets: [] },
    });
    expect(body.data.comparison_url).toBe(
      `https://memtrail.example/project/${projectId}/target/stm32-sample/compare?head=${sha(1)}`,
    );
    const report = await prisma.report.findUniqueOrThrow({
      where: { id: body.data.report_id },
      include: { commit: true, target: true },
    });
    expect(report).toMatchObject({
      kind: 'full',
      status: 'pending',
      version: 1,
      branch: 'main',
      symbolCount: 18,
    });
    expect(report.commit).toMatchObject({ sha: sha(1), message: 'commit 0001', authorName: 'Dev' });
    expect((report.regionTotals as Record<string, { used_size: number }>).FLASH!.used_size).toBe(
      413,
    );
    const job = await queue.getJob(`report-${report.id}-v1`);
    expect(job?.data).toEqual({ reportId: report.id, version: 1, requestId: expect.any(String) });
    const head = await prisma.head.findFirstOrThrow({
      where: { targetId: report.targetId, branch: 'main' },
    });
    expect(head.commitSha).toBe(sha(1));
  });

  it('times each step of an accepted upload, and of a refused one only the steps it ended', async () => {
    const before = await phaseCounts();
    // Decoded on the event loop here (tests run from sources): decode_wait is a thread's.
    const steps = ['body', 'decode', 'store', 'answer'];
    const added = async () => {
      const now = await phaseCounts();
      return Object.fromEntries(steps.map((s) => [s, (now[s] ?? 0) - (before[s] ?? 0)]));
    };
    const upload = envelope(sha(0x7e5), null, sample, { target_name: 'timed-steps' });
    expect((await post(upload)).status).toBe(200);
    expect(await added()).toEqual({ body: 1, decode: 1, store: 1, answer: 1 });
    expect((await post(null, { raw: Buffer.from('{"metadata": ') })).status).toBe(400);
    expect(await added()).toEqual({ body: 2, decode: 1, store: 1, answer: 1 });
  });

  it('reports region and section changes against the parent, gzip body, on every path', async () => {
    for (const [i, path] of ['/upload', '/api/upload', '/api/v1/upload'].entries()) {
      const commit = sha(10 + i);
      const { status, body } = await post(
        envelope(commit, sha(1), grow(sample, 'FLASH', 100 * (i + 1))),
        { path, gzip: true },
      );
      expect(status).toBe(200);
      expect(body.data.changes_summary.FLASH).toEqual({
        used_change: 100 * (i + 1),
        free_change: -100 * (i + 1),
      });
      expect(body.data.changes_summary.RAM).toEqual({ used_change: 0, free_change: 0 });
      expect(body.data.changes.regions.modified).toEqual([
        {
          name: 'FLASH',
          used_size: 413 + 100 * (i + 1),
          limit_size: 262144,
          old: { used_size: 413 },
        },
      ]);
      expect(body.data.changes.sections.modified).toEqual([
        { name: '.isr_vector', region: 'FLASH', size: 16 + 100 * (i + 1), old: { size: 16 } },
      ]);
    }
  });

  it('lists symbol changes against the parent build', async () => {
    const changed = structuredClone(sample);
    changed.symbols[0]!.size += 32;
    changed.symbols.splice(1, 1);
    const { body } = await post(envelope(sha(15), sha(1), changed));
    expect(body.data.changes.symbols.modified).toEqual([
      expect.objectContaining({
        name: sample.symbols[0]!.name,
        size: sample.symbols[0]!.size + 32,
        delta: 32,
      }),
    ]);
    expect(body.data.changes.symbols.removed).toEqual([
      expect.objectContaining({ name: sample.symbols[1]!.name, delta: -sample.symbols[1]!.size }),
    ]);
    expect(body.data.changes.symbols.added).toEqual([]);

    const summary = await fetch(`${baseUrl}/summary?commit=${sha(15)}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    const { data } = (await summary.json()) as SummaryResponse;
    expect(data.targets[0]!.changes_summary.changes.symbols?.modified).toEqual([
      expect.objectContaining({ name: sample.symbols[0]!.name, delta: 32 }),
    ]);
  });

  it('replaces a re-upload of the same target and commit and says so', async () => {
    const first = await post(envelope(sha(20), sha(1)));
    const second = await post(envelope(sha(20), sha(1), grow(sample, 'RAM', 8)));
    expect(second.body.data.is_overwritten).toBe(true);
    expect(second.body.data.report_id).toBe(first.body.data.report_id);
    const report = await prisma.report.findUniqueOrThrow({
      where: { id: first.body.data.report_id },
    });
    expect(report).toMatchObject({ version: 2, overwriteCount: 1 });
    expect(await queue.getJob(`report-${report.id}-v2`)).toBeTruthy();
  });

  it('gives an identical upload its parent footprint, and records failed builds', async () => {
    const identical = await post(
      envelope(
        sha(30),
        sha(10),
        { ...sample, memory_layout: {}, symbols: [] },
        { identical: true },
      ),
    );
    expect(identical.status).toBe(200);
    expect(identical.body.data.changes_summary.FLASH).toEqual({ used_change: 0, free_change: 0 });
    const stored = await prisma.report.findUniqueOrThrow({
      where: { id: identical.body.data.report_id },
    });
    expect(stored.kind).toBe('identical');
    expect((stored.regionTotals as Record<string, { used_size: number }>).FLASH!.used_size).toBe(
      513,
    );

    const failed = await post(
      envelope(
        sha(31),
        sha(30),
        { ...sample, memory_layout: {}, symbols: [] },
        { build_failed: true },
      ),
    );
    expect(failed.status).toBe(200);
    expect(
      (await prisma.report.findUniqueOrThrow({ where: { id: failed.body.data.report_id } })).kind,
    ).toBe('build_failed');
  });

  it('moves a branch head only to a newer commit, or one without a time', async () => {
    const onRelease = (commit: string, time?: null) => {
      const body = envelope(commit, null);
      body.metadata.git.branch_name = 'release';
      if (time === null) delete body.metadata.git.commit_timestamp;
      return body;
    };
    const head = async () => {
      const target = await prisma.target.findFirstOrThrow({
        where: { projectId, name: 'stm32-sample' },
      });
      return (
        await prisma.head.findUniqueOrThrow({
          where: { targetId_branch: { targetId: target.id, branch: 'release' } },
        })
      ).commitSha;
    };
    await post(onRelease(sha(0x160)));
    expect(await head()).toBe(sha(0x160));
    // Uploaded later, committed earlier: a CI run that finished late does not move the head back.
    await post(onRelease(sha(0x150)));
    expect(await head()).toBe(sha(0x160));
    await post(onRelease(sha(0x170)));
    expect(await head()).toBe(sha(0x170));
    await post(onRelease(sha(0x168), null));
    expect(await head()).toBe(sha(0x168));
  });

  it('treats parent_commit_hash: null as no parent even when base_commit_hash is set', async () => {
    const body = envelope(sha(40), sha(1));
    body.metadata.git.parent_commit_hash = null;
    const { body: answer } = await post(body);
    expect(answer.data.parent_sha).toBeNull();
    const report = await prisma.report.findUniqueOrThrow({ where: { id: answer.data.report_id } });
    expect(report).toMatchObject({ parentSha: null, noParent: true });
  });

  it('alerts on budgets the upload exceeds on matching branches', async () => {
    const target = await prisma.target.findFirstOrThrow({
      where: { projectId, name: 'stm32-sample' },
    });
    await prisma.budget.create({
      data: { targetId: target.id, name: 'Flash budget', limits: { FLASH: 400 } },
    });
    await prisma.budget.create({
      data: {
        targetId: target.id,
        name: 'Release RAM',
        branchPattern: 'release/*',
        limits: { RAM: 10 },
      },
    });
    const { body } = await post(envelope(sha(50), sha(1)));
    expect(body.data.alerts.budgets).toEqual([
      {
        budget_name: 'Flash budget',
        exceeded_regions: ['FLASH'],
        current_usage: { FLASH: 413 },
        limits: { FLASH: 400 },
        exceeded_by: { FLASH: 13 },
      },
    ]);
    await prisma.budget.deleteMany({ where: { targetId: target.id } });
  });

  it('ends 20 concurrent uploads of one target and commit as one consistent report', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(envelope(sha(60), sha(1), grow(sample, 'RAM', i)))),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => !r.body.data.is_overwritten)).toHaveLength(1);
    const reports = await prisma.report.findMany({ where: { commit: { sha: sha(60) } } });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ version: 20, overwriteCount: 19 });
  });

  it('summarises a commit across every target of the project for PR comments', async () => {
    const other = envelope(sha(90), null);
    other.metadata.target_name = 'nrf52';
    await post(other);
    const pr = envelope(sha(91), sha(90), grow(sample, 'RAM', 64));
    pr.metadata.target_name = 'nrf52';
    pr.metadata.git.pr_number = '12';
    await post(pr);
    const onStm = envelope(sha(91), sha(1), grow(sample, 'FLASH', 4));
    await post(onStm);

    const response = await fetch(`${baseUrl}/summary?commit=${sha(91)}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(response.status).toBe(200);
    const { success, data } = (await response.json()) as SummaryResponse;
    expect(success).toBe(true);
    expect(data.pr_number).toBe(12);
    expect(data.targets.map((t) => t.target_name)).toEqual(['nrf52', 'stm32-sample']);
    expect(data.targets[0]!.changes_summary.changes.regions.modified).toEqual([
      {
        name: 'RAM',
        used_size: 3784,
        limit_size: 65536,
        old: { used_size: 3720 },
      },
    ]);
    // Symbols are always summarised: nrf52's build changed no symbol, so none is listed.
    expect(data.targets[0]!.changes_summary.changes.symbols).toEqual({
      added: [],
      removed: [],
      modified: [],
      moved: [],
    });
    expect(data.targets[1]!.changes_summary.changes.regions.modified[0]).toMatchObject({
      name: 'FLASH',
      used_size: 417,
    });
    expect(data.targets[0]!.dashboard_url).toBe(
      `https://memtrail.example/project/${projectId}/target/nrf52`,
    );
    // Beyond the MemBrowse shape: the report's kind, its parent and every region, changed or not.
    expect(data.targets[0]).toMatchObject({ kind: 'full', parent_sha: sha(90) });
    expect(data.targets[0]!.regions!.find((r) => r.name === 'RAM')).toEqual({
      name: 'RAM',
      used_size: 3784,
      limit_size: 65536,
      change: 64,
    });
    expect(data.targets[0]!.regions!.find((r) => r.name === 'FLASH')).toMatchObject({ change: 0 });
    // Every region the build puts something in; one nothing uses (CCMRAM here) is left out.
    expect(data.targets[0]!.regions!.map((r) => r.name).sort()).toEqual(
      Object.entries(sample.memory_layout)
        .filter(([, region]) => region.used_size > 0)
        .map(([name]) => name)
        .sort(),
    );
    expect(sample.memory_layout['CCMRAM']?.used_size).toBe(0);
    // The regions follow the target's region configuration: display names, hidden ones left out.
    await prisma.target.updateMany({
      where: { projectId, name: 'nrf52' },
      data: {
        regionConfig: {
          version: 2,
          regions: { RAM: { display_name: 'SRAM' }, CCMRAM: { hidden: true } },
        },
      },
    });
    const configured = (await (
      await fetch(`${baseUrl}/summary?commit=${sha(91)}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      })
    ).json()) as SummaryResponse;
    expect(configured.data.targets[0]!.regions!.map((r) => [r.name, r.change])).toEqual([
      ['FLASH', 0],
      ['SRAM', 64],
    ]);
    await prisma.target.updateMany({
      where: { projectId, name: 'nrf52' },
      data: { regionConfig: {} },
    });

    const missing = await fetch(`${baseUrl}/summary?commit=${sha(999)}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(missing.status).toBe(404);
    const foreign = await fetch(`${baseUrl}/summary?commit=${sha(91)}`, {
      headers: { Authorization: `Bearer ${otherKey}` },
    });
    expect(foreign.status).toBe(404);
    const bad = await fetch(`${baseUrl}/summary`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    expect(await bad.json()).toMatchObject({
      success: false,
      error: 'commit is required: GET /summary?commit=<sha>',
    });
  });

  describe('bad input is refused with a clear 4xx and nothing stored', () => {
    const cases: [string, () => Promise<Awaited<ReturnType<typeof post>>>, number, RegExp][] = [
      ['no key', () => post(envelope(sha(70), null), { key: null }), 401, /API key required/],
      [
        'unknown key',
        () => post(envelope(sha(70), null), { key: 'mt_nope_nope' }),
        401,
        /Invalid API key/,
      ],
      [
        'empty layout',
        () => post(envelope(sha(70), null, { ...sample, memory_layout: {} })),
        400,
        /memory_layout is required and cannot be empty/,
      ],
      [
        'missing target',
        () =>
          post({
            ...envelope(sha(70), null),
            metadata: { ...envelope(sha(70), null).metadata, target_name: '' },
          }),
        400,
        /metadata.target_name is required/,
      ],
      [
        'wrong types',
        () => post({ ...envelope(sha(70), null), memory_analysis: { ...sample, symbols: 'many' } }),
        400,
        /memory_analysis.symbols must be an array/,
      ],
      [
        'bad region number',
        () =>
          post(
            envelope(sha(70), null, {
              ...sample,
              memory_layout: {
                FLASH: { ...sample.memory_layout.FLASH!, used_size: 'big' as unknown as number },
              },
            }),
          ),
        400,
        /memory_layout.FLASH.used_size must be a non-negative integer/,
      ],
      [
        // Stored as UInt64 in ClickHouse: refused here, not left to fail ingestion later.
        'fractional symbol size',
        () =>
          post(
            envelope(sha(70), null, {
              ...sample,
              symbols: [{ ...sample.symbols[0]!, size: 2.5 }, ...sample.symbols.slice(1)],
            }),
          ),
        400,
        /memory_analysis.symbols\[0\].size must be a non-negative integer/,
      ],
      [
        'bad sha',
        () => post(envelope('not-a-sha', null)),
        400,
        /commit_hash must be a hexadecimal commit SHA/,
      ],
      [
        'invalid JSON',
        () => post(null, { raw: Buffer.from('{"metadata": ') }),
        400,
        /not valid JSON/,
      ],
      [
        'invalid gzip',
        () => post(null, { raw: Buffer.from('definitely not gzip'), encoding: 'gzip' }),
        400,
        /not valid gzip/,
      ],
      [
        // Postgres text cannot hold U+0000: a 400 naming the field, not a 500.
        'NUL in the commit message',
        () =>
          post({
            ...envelope(sha(70), null),
            metadata: {
              ...envelope(sha(70), null).metadata,
              git: { ...envelope(sha(70), null).metadata.git, commit_message: 'fix\u0000' },
            },
          }),
        400,
        /metadata.git.commit_message cannot contain NUL characters/,
      ],
      [
        // Refused rather than stored with U+FFFD in place of the bytes sent.
        'invalid UTF-8 in a symbol name',
        () =>
          post(null, {
            raw: Buffer.from(
              Buffer.from(
                JSON.stringify(envelope(sha(70), null)).replace(
                  sample.symbols[0]!.name,
                  'bad\u0001name',
                ),
              ).map((byte) => (byte === 1 ? 0xff : byte)),
            ),
          }),
        400,
        /Request body is not valid UTF-8/,
      ],
      [
        'too large',
        () => post(null, { raw: Buffer.alloc(9 * 1024 * 1024, 32) }),
        413,
        /exceeds the upload limit/,
      ],
      [
        'identical without parent',
        () => post(envelope(sha(70), null, { ...sample, memory_layout: {} }, { identical: true })),
        400,
        /base_commit_hash is required for an identical upload/,
      ],
    ];
    it.each(cases)('%s', async (_name, run, status, message) => {
      const before = await reportCount();
      const result = await run();
      expect(result.status).toBe(status);
      expect(result.body).toMatchObject({ success: false, error: expect.stringMatching(message) });
      expect(await reportCount()).toBe(before);
    });

    it("another project's key uploads to its own project, never this one", async () => {
      const { body } = await post(envelope(sha(80), null), { key: otherKey });
      expect(body.data.project_id).not.toBe(projectId);
      expect(await prisma.commit.count({ where: { projectId, sha: sha(80) } })).toBe(0);
    });
  });
});
