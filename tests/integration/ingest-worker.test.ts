import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue, QueueEvents, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { createClickHouse, purgeStatement, type ClickHouseClient } from '@memtrail/clickhouse';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import {
  createPrismaClient,
  createSqlPool,
  type PrismaClient,
  type ReportKind,
  type SqlPool,
} from '@memtrail/db';
import {
  createRedisConnection,
  createReportsQueue,
  enqueueReport,
  ingestJobId,
  QueueNames,
  type ProjectPurgeJob,
  type ReportsQueue,
} from '@memtrail/queue';
import { ServiceMetrics } from '@memtrail/metrics';
import {
  createIsolatedStores,
  eventually,
  projectData,
  type IsolatedStores,
} from '@memtrail/testing';
import { startIngestWorker } from './support/read-services.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import {
  IngestReportService,
  ParentNotIngestedError,
} from '../../services/ingest-worker/src/ingest/ingest-report.service.js';
import { BlockCopier } from '../../services/ingest-worker/src/ingest/block-copier.js';
import { BlockWriter } from '../../services/ingest-worker/src/ingest/block-writer.js';
import { StoredBlocks } from '../../services/ingest-worker/src/ingest/stored-blocks.js';
import { ReportsSweeper } from '../../services/ingest-worker/src/ingest/reports-sweeper.js';
import { clickhouseBlocks, storedSymbols, storeVersion } from './support/stored-reports.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

const sha = (n: number) => n.toString(16).padStart(40, '0');

/** The sample's symbols as the store gives them back: in address order. */
const byAddress = <T extends { address: number }>(symbols: readonly T[]): T[] =>
  [...symbols].sort((a, b) => a.address - b.address);

describe('ingest worker: report versions from Postgres, symbol blocks into ClickHouse', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let sql: SqlPool;
  let clickhouse: ClickHouseClient;
  let worker: INestApplicationContext;
  let queue: ReportsQueue;
  let events: QueueEvents;
  let targetId: string;
  let projectId: string;
  const connections: Redis[] = [];
  const connect = () => {
    const connection = createRedisConnection(stores.redisUrl);
    connections.push(connection);
    return connection;
  };

  const envelope = (commit: string, report: MemoryReport = sample): UploadEnvelope => ({
    metadata: { git: { commit_hash: commit }, target_name: 'stm32', identical: false },
    memory_analysis: report,
  });

  /**
   * A report as the gateway stores an upload (a version and its new blocks), or — with
   * `legacyPayload` — as uploads were stored before report versions: the whole gzip envelope.
   */
  async function storeReport(
    commit: string,
    options: {
      report?: MemoryReport;
      kind?: ReportKind;
      parentSha?: string;
      legacyPayload?: Buffer;
      /** Another project's target; the suite's own by default. */
      target?: { projectId: string; targetId: string };
    } = {},
  ): Promise<string> {
    const target = options.target ?? { projectId, targetId };
    const kind = options.kind ?? 'full';
    const row = await prisma.commit.create({
      data: {
        projectId: target.projectId,
        sha: commit,
        committedAt: new Date('2026-11-01T10:00:00Z'),
      },
    });
    const report = await prisma.report.create({
      data: {
        targetId: target.targetId,
        commitId: row.id,
        kind,
        parentSha: options.parentSha ?? null,
        payload: (options.legacyPayload ?? null) as Uint8Array<ArrayBuffer> | null,
        payloadSha256: 'test',
      },
    });
    if (!options.legacyPayload) {
      await storeVersion(prisma, report.id, 1, envelope(commit, options.report), kind);
    }
    return report.id;
  }

  /** Overwrites a report with a new upload, as the gateway does: a new current version. */
  async function overwrite(reportId: string, version: number, report: MemoryReport) {
    await prisma.report.update({ where: { id: reportId }, data: { version, status: 'pending' } });
    await storeVersion(prisma, reportId, version, envelope('x', report), 'full');
  }

  /** Symbol rows ClickHouse holds for a target, and how many blocks. */
  async function clickhouseRows(target = targetId): Promise<{ rows: number; blocks: number }> {
    const blocks = await clickhouseBlocks(clickhouse, target);
    return {
      rows: [...blocks.values()].reduce((n, b) => n + b.rows, 0),
      blocks: blocks.size,
    };
  }

  const symbolsOf = (reportId: string, version = 1) =>
    storedSymbols(sql, clickhouse, reportId, version);

  const ingest = () => worker.get(IngestReportService);
  /** Copies every waiting block to ClickHouse, as the worker does on its timer. */
  const copy = async () => {
    let handled = 0;
    for (let batch; (batch = await worker.get(BlockCopier).copyOnce());) handled += batch;
    return handled;
  };

  async function newTarget(name: string) {
    return {
      projectId,
      targetId: (await prisma.target.create({ data: { projectId, name } })).id,
    };
  }

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    sql = createSqlPool(stores.databaseUrl);
    clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    const project = await prisma.project.create({ data: projectData('Sample', owner.id) });
    projectId = project.id;
    targetId = (await prisma.target.create({ data: { projectId, name: 'stm32' } })).id;

    worker = await startIngestWorker(stores, {
      SWEEP_AFTER_MS: '1000',
      WORKER_PARENT_WAIT_MS: '300',
      // The tests copy blocks to ClickHouse themselves (copy()).
      WORKER_COPY_INTERVAL_MS: '0',
    });
    queue = createReportsQueue({ connection: connect(), prefix: stores.queuePrefix });
    events = new QueueEvents(QueueNames.reports, {
      connection: connect(),
      prefix: stores.queuePrefix,
    });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await events?.close();
    await queue?.close();
    await worker?.close();
    await Promise.all(connections.map((connection) => connection.quit()));
    await prisma?.$disconnect();
    await sql?.end();
    await clickhouse?.close();
    await stores?.cleanup();
  });

  it('consumes an enqueued report, readable at once; its blocks reach ClickHouse in a batch', async () => {
    const reportId = await storeReport(sha(1));
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    const result = await (await queue.getJob(jobId))!.waitUntilFinished(events, 30_000);
    expect(result).toMatchObject({ status: 'ingested' });
    const stored = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(stored).toMatchObject({ status: 'ingested', ingestedVersion: 1 });
    // Readable before ClickHouse has anything: the blocks come from Postgres.
    expect((await clickhouseRows()).rows).toBe(0);
    const expected = byAddress(sample.symbols).map((s) => ({
      name: s.name,
      full_name: '',
      address: s.address,
      size: s.size,
      type: s.type,
      binding: s.binding,
      section: s.section,
      region: expect.any(String),
      source_file: s.source_file,
      source_line: s.source_line,
      visibility: s.visibility,
      archive: s.archive,
      object_file: s.object_file,
    }));
    expect(await symbolsOf(reportId)).toEqual(expected);

    expect(await copy()).toBeGreaterThan(0);
    expect((await clickhouseRows()).rows).toBe(sample.symbols.length);
    expect(await symbolsOf(reportId)).toEqual(expected);
    expect((await symbolsOf(reportId)).find((s) => s.section === '.text')!.region).toBe('FLASH');
    // A target's first version counts every block from nothing.
    const version = await prisma.reportVersion.findUniqueOrThrow({
      where: { reportId_version: { reportId, version: 1 } },
      include: { events: true },
    });
    expect(version.baseReportId).toBeNull();
    expect(version.events.length).toBe((await clickhouseRows()).blocks);
    // Every insert is timed and its rows counted.
    const metrics = await worker.get(ServiceMetrics).registry.metrics();
    expect(metrics).toMatch(
      /memtrail_clickhouse_insert_duration_seconds_count\{service="ingest-worker",table="symbol_blocks_v2"\} [1-9]/,
    );
  });

  it('writes only the blocks a child commit changed, and its events against its parent', async () => {
    const target = await newTarget('child-commits');
    const parentId = await storeReport(sha(30), { target });
    await ingest().ingest({ reportId: parentId, version: 1 });
    await copy();
    const before = await clickhouseRows(target.targetId);
    expect(before.rows).toBe(sample.symbols.length);

    // The child grows one function: every later symbol of its section moves 8 bytes.
    const grown = structuredClone(sample);
    const text = byAddress(grown.symbols.filter((s) => s.section === '.text'));
    const first = text[0]!;
    first.size += 8;
    for (const s of text.slice(1)) s.address += 8;
    const childId = await storeReport(sha(31), { target, report: grown, parentSha: sha(30) });
    const outcome = await ingest().ingest({ reportId: childId, version: 1 });
    expect(outcome).toMatchObject({ status: 'ingested' });
    await copy();
    const after = await clickhouseRows(target.targetId);
    // One block is new; the moved ones are the parent's, at other base addresses.
    expect(after.blocks).toBe(before.blocks + 1);
    expect(after.rows - before.rows).toBeLessThan(sample.symbols.length / 2);
    expect((await symbolsOf(childId)).find((s) => s.name === first.name)!.size).toBe(first.size);

    const child = await prisma.reportVersion.findUniqueOrThrow({
      where: { reportId_version: { reportId: childId, version: 1 } },
      include: { events: true },
    });
    expect({ base: child.baseReportId, version: child.baseVersion }).toEqual({
      base: parentId,
      version: 1,
    });
    expect(child.events.map((e) => e.delta).sort()).toEqual([-1, 1]);
  });

  it('turns uploads stored before report versions into versions and blocks, a child as changes to its parent', async () => {
    const target = await newTarget('legacy');
    const legacy = (commit: string, report?: MemoryReport) =>
      gzipSync(JSON.stringify(envelope(commit, report)));
    const parentId = await storeReport(sha(40), { target, legacyPayload: legacy(sha(40)) });
    const grown = structuredClone(sample);
    grown.symbols[0]!.size += 4;
    const childId = await storeReport(sha(42), {
      target,
      parentSha: sha(40),
      legacyPayload: legacy(sha(42), grown),
    });
    for (const reportId of [parentId, childId])
      expect(await ingest().ingest({ reportId, version: 1 })).toMatchObject({ status: 'ingested' });
    for (const reportId of [parentId, childId])
      expect(
        (await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).payload,
      ).toBeNull();
    expect((await symbolsOf(parentId)).map((s) => s.name)).toEqual(
      byAddress(sample.symbols).map((s) => s.name),
    );
    expect((await symbolsOf(childId)).map((s) => [s.name, s.size])).toEqual(
      byAddress(grown.symbols).map((s) => [s.name, s.size]),
    );
    const versions = await prisma.reportVersion.findMany({
      where: { reportId: { in: [parentId, childId] } },
    });
    const of = (id: string) => versions.find((v) => v.reportId === id)!;
    expect(of(parentId)).toMatchObject({ recordBaseReportId: null, recordDepth: 0 });
    expect(of(childId)).toMatchObject({ recordBaseReportId: parentId, recordDepth: 1 });
    expect(of(childId).record!.length).toBeLessThan(of(parentId).record!.length);
  });

  it('never doubles rows when a worker died after writing blocks, before marking them', async () => {
    const target = await newTarget('crash');
    const reportId = await storeReport(sha(41), { target });
    await ingest().ingest({ reportId, version: 1 });
    // What a worker killed after its ClickHouse insert, before marking, leaves: the blocks
    // claimed (an attempt counted) and written, still waiting in Postgres.
    const blocks = worker.get(StoredBlocks);
    await blocks.exclusively(async (db) => {
      const claimed = await blocks.claim(db, 10_000);
      await worker.get(BlockWriter).write(claimed);
    });
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);
    await copy();
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);
    expect(await prisma.symbolBlock.count({ where: { inClickhouse: false } })).toBe(0);
  });

  it('never doubles rows when ClickHouse forgot the token of an earlier write', async () => {
    const target = await newTarget('forgotten-token');
    const reportId = await storeReport(sha(54), { target });
    await ingest().ingest({ reportId, version: 1 });
    const blocks = worker.get(StoredBlocks);
    await blocks.exclusively(async (db) => {
      await worker.get(BlockWriter).write(await blocks.claim(db, 10_000));
    });
    // The deduplication window has moved on (the table's last inserts are others').
    await clickhouse.command({
      query: 'ALTER TABLE symbol_blocks_v2 MODIFY SETTING non_replicated_deduplication_window = 0',
    });
    try {
      await copy();
    } finally {
      await clickhouse.command({
        query:
          'ALTER TABLE symbol_blocks_v2 MODIFY SETTING non_replicated_deduplication_window = 1000',
      });
    }
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);
  });

  it('copies with one worker at a time; another finds the lock taken and leaves it', async () => {
    const target = await newTarget('two-copiers');
    const ids = await Promise.all([50, 51, 52].map((n) => storeReport(sha(n), { target })));
    for (const reportId of ids) await ingest().ingest({ reportId });
    const [a, b] = await Promise.all([
      worker.get(BlockCopier).copyOnce(),
      worker.get(BlockCopier).copyOnce(),
    ]);
    expect([a, b].filter((n) => n === undefined)).toHaveLength(1);
    await copy();
    // The three reports are one build: one set of blocks, stored once.
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);
    for (const reportId of ids)
      expect(await symbolsOf(reportId)).toHaveLength(sample.symbols.length);
  });

  it('leaves a block that cannot be read in Postgres and copies the others', async () => {
    const target = await newTarget('damaged-block');
    const reportId = await storeReport(sha(55), { target });
    await ingest().ingest({ reportId, version: 1 });
    const [damaged] = await prisma.symbolBlock.findMany({ where: { targetId: target.targetId } });
    await prisma.symbolBlock.update({
      where: { targetId_hash: { targetId: target.targetId, hash: damaged!.hash } },
      data: { data: Buffer.from('not gzip') as Uint8Array<ArrayBuffer> },
    });
    await copy();
    const waiting = await prisma.symbolBlock.findMany({
      where: { targetId: target.targetId, inClickhouse: false },
    });
    expect(waiting.map((b) => Buffer.from(b.hash).toString('hex'))).toEqual([
      Buffer.from(damaged!.hash).toString('hex'),
    ]);
    expect((await clickhouseRows(target.targetId)).rows).toBe(
      sample.symbols.length - damaged!.symbolCount,
    );
    // Left out of later batches, with the reason, so it never stops the others.
    expect(waiting[0]!.copyError).toMatch(/unreadable/);
    expect((await worker.get(StoredBlocks).waiting()).rows).toBe(0);
  });

  it('stores names with tabs, newlines, backslashes, quotes and non-ASCII text unchanged', async () => {
    const names = [
      'tab\there',
      'line\nbreak\r\n',
      'back\\slash\\t',
      'quote\'"',
      'nul\0byte',
      'ünïcødé_€_🙂',
      '\\N',
      '',
    ];
    const report: MemoryReport = {
      ...sample,
      symbols: names.map((name, i) => ({
        ...sample.symbols[0]!,
        name,
        source_file: `dir\t${name}/file.c`,
        address: sample.symbols[0]!.address + i * 4,
      })),
    };
    const reportId = await storeReport(sha(20), { report, target: await newTarget('texts') });
    await ingest().ingest({ reportId, version: 1 });
    const stored = await symbolsOf(reportId);
    expect(stored.map(({ name, source_file }) => ({ name, source_file }))).toEqual(
      names.map((name) => ({ name, source_file: `dir\t${name}/file.c` })),
    );
  });

  it('skips a job for a version that has since been overwritten', async () => {
    const reportId = await storeReport(sha(3));
    await prisma.report.update({ where: { id: reportId }, data: { version: 2 } });
    const outcome = await ingest().ingest({ reportId, version: 1 });
    expect(outcome).toEqual({ status: 'stale', reportId, version: 1, current: 2 });
  });

  it('replaces an overwritten report: the old version stays readable until the new one is complete', async () => {
    const reportId = await storeReport(sha(4), { target: await newTarget('overwrite') });
    await ingest().ingest({ reportId, version: 1 });
    const smaller = { ...sample, symbols: sample.symbols.slice(0, 5) };
    await overwrite(reportId, 2, smaller);
    // Before the new version is ingested, readers still find version 1 complete.
    const pending = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(pending.ingestedVersion).toBe(1);
    expect(await symbolsOf(reportId, 1)).toHaveLength(sample.symbols.length);

    await ingest().ingest({ reportId, version: 2 });
    const done = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(done).toMatchObject({ status: 'ingested', ingestedVersion: 2 });
    expect(await symbolsOf(reportId, 2)).toHaveLength(5);
  });

  it("gives an identical report its parent's record, waiting while the parent has none", async () => {
    const target = await newTarget('identical');
    // The parent is stored the way uploads were before versions: no record until converted.
    const parentId = await storeReport(sha(5), {
      target,
      legacyPayload: gzipSync(JSON.stringify(envelope(sha(5)))),
    });
    const childId = await storeReport(sha(6), { target, kind: 'identical', parentSha: sha(5) });
    await expect(ingest().ingest({ reportId: childId, version: 1 })).rejects.toBeInstanceOf(
      ParentNotIngestedError,
    );

    await ingest().ingest({ reportId: parentId, version: 1 });
    const outcome = await ingest().ingest({ reportId: childId, version: 1 });
    expect(outcome).toMatchObject({ status: 'ingested' });
    expect(await symbolsOf(childId)).toEqual(await symbolsOf(parentId));
  });

  it('keeps an identical build waiting for its parent without using up its attempts', async () => {
    const target = await newTarget('waiting');
    const parentId = await storeReport(sha(14), {
      target,
      legacyPayload: gzipSync(JSON.stringify(envelope(sha(14)))),
    });
    const childId = await storeReport(sha(15), { target, kind: 'identical', parentSha: sha(14) });
    const childJob = await enqueueReport(queue, { reportId: childId, version: 1 });
    // Several looks for the parent's record (one every 300 ms), more than backoff would allow.
    await sleep(2000);
    // Between looks it is delayed; at a look, briefly waiting or active; never finished.
    expect(await queue.getJobState(childJob)).not.toMatch(/completed|failed/);
    expect((await queue.getJob(childJob))!.attemptsMade).toBe(0);
    // Waiting is not failing, in the metrics either.
    const durations = await worker.get(ServiceMetrics).jobDuration.get();
    const delayed = durations.values.find(
      (v) => v.metricName?.endsWith('_count') && v.labels.outcome === 'delayed',
    );
    expect(delayed?.value).toBeGreaterThanOrEqual(1);

    await enqueueReport(queue, { reportId: parentId, version: 1 });
    await (await queue.getJob(childJob))!.waitUntilFinished(events, 30_000);
    expect(await prisma.report.findUniqueOrThrow({ where: { id: childId } })).toMatchObject({
      status: 'ingested',
      ingestedVersion: 1,
    });
    expect(await symbolsOf(childId)).toHaveLength(sample.symbols.length);
  });

  it('fails an identical report at once when its parent failed for good', async () => {
    const target = await newTarget('failed-parent');
    await storeReport(sha(12), { target, legacyPayload: Buffer.from('not gzip') });
    await prisma.$executeRaw`UPDATE reports r SET status = 'failed', last_error = 'stored payload is unreadable'
      FROM commits c WHERE c.id = r.commit_id AND c.sha = ${sha(12)}`;
    const childId = await storeReport(sha(13), { target, kind: 'identical', parentSha: sha(12) });
    const failure = ingest().ingest({ reportId: childId, version: 1 });
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow(
      `parent ${sha(12)} failed to ingest (stored payload is unreadable)`,
    );
  });

  it('marks a report failed, with the reason, when its job fails for good', async () => {
    const reportId = await storeReport(sha(7), { legacyPayload: Buffer.from('not gzip') });
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    await expect((await queue.getJob(jobId))!.waitUntilFinished(events, 30_000)).rejects.toThrow(
      'stored payload is unreadable',
    );
    const failed = await eventually(
      () => prisma.report.findUniqueOrThrow({ where: { id: reportId } }),
      (report) => report.status === 'failed',
    );
    expect(failed.lastError).toContain('stored payload is unreadable');
  });

  it('fails a job for a missing report at once, with the id in the reason', async () => {
    const reportId = '00000000-0000-4000-8000-000000000000';
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    await expect((await queue.getJob(jobId))!.waitUntilFinished(events, 30_000)).rejects.toThrow(
      `report ${reportId} not found`,
    );
    expect((await queue.getJob(jobId))!.attemptsMade).toBe(1);
  });

  it('removes every byte of a deleted project from ClickHouse, projections included', async () => {
    const owner = await prisma.user.findFirstOrThrow();
    const gone = await prisma.project.create({ data: projectData('Gone', owner.id) });
    const target = {
      projectId: gone.id,
      targetId: (await prisma.target.create({ data: { projectId: gone.id, name: 'g' } })).id,
    };
    const kept = await storeReport(sha(60), { target: await newTarget('kept') });
    const reportId = await storeReport(sha(9), { target });
    await ingest().ingest({ reportId, version: 1 });
    await ingest().ingest({ reportId: kept, version: 1 });
    await copy();
    const count = async (query: string, id?: string) => {
      const result = await clickhouse.query({
        query,
        query_params: { id },
        format: 'JSONEachRow',
      });
      return (await result.json<{ name?: string; n: string }>()).map(
        (r): [string | undefined, number] => [r.name, Number(r.n)],
      );
    };
    // A project's rows, and every row of each projection: a projection keeping rows its table
    // no longer has would hold more than the table.
    const counts = async (id: string) => [
      ...(await count(
        'SELECT count() AS n FROM symbol_blocks_v2 WHERE project_id = {id:String}',
        id,
      )),
      ...(await count('SELECT count() AS n FROM symbol_blocks_v2')),
      ...(await count(
        `SELECT name, sum(rows) AS n FROM system.projection_parts
         WHERE database = currentDatabase() AND table = 'symbol_blocks_v2' AND active
         GROUP BY name ORDER BY name`,
      )),
    ];
    const initial = await counts(gone.id);
    const before = Number(initial[0]![1]);
    const all = Number(initial[1]![1]);
    expect(before).toBeGreaterThan(0);
    const purges = new Queue<ProjectPurgeJob>(QueueNames.projectClickHousePurges, {
      connection: connect(),
      prefix: stores.queuePrefix,
    });
    await purges.add('purge', { projectId: gone.id }, { jobId: `project-${gone.id}` });
    const left = all - before;
    await eventually(
      () => counts(gone.id),
      (n) => n[0]![1] === 0,
    );
    // Nothing of it is left in the table or in either projection; the rest is untouched.
    expect(await counts(gone.id)).toEqual([
      [undefined, 0],
      [undefined, left],
      ['by_file', left],
      ['by_name', left],
    ]);
    await purges.close();
  });

  it('writes cluster deletions ClickHouse can parse', async () => {
    // No cluster runs here: ClickHouse parses the statement the worker sends on one.
    const statement = purgeStatement('cluster', 'symbol_blocks_v2', "project_id = 'p'");
    const result = await clickhouse.query({
      query: `EXPLAIN AST ${statement}`,
      format: 'TabSeparated',
    });
    expect(await result.text()).toContain('symbol_blocks_v2_local');
  });

  it('sweeps reports whose job was lost back into the queue', async () => {
    const reportId = await storeReport(sha(8));
    // Stored and acknowledged, but the job never reached Redis (or Redis was flushed).
    await prisma.$executeRaw`UPDATE reports SET updated_at = now() - interval '1 hour' WHERE id = ${reportId}::uuid`;
    expect(await worker.get(ReportsSweeper).sweepOnce()).toContain(reportId);
    const job = await queue.getJob(`report-${reportId}-v1`);
    await job!.waitUntilFinished(events, 30_000);
    expect((await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).status).toBe(
      'ingested',
    );
  });

  it('writes every block again after ClickHouse lost them, once `reingest` marked them', async () => {
    // A project of its own: reingest marks every block of the project it is given.
    const owner = await prisma.user.findFirstOrThrow();
    const project = await prisma.project.create({ data: projectData('Rebuilt', owner.id) });
    const target = {
      projectId: project.id,
      targetId: (await prisma.target.create({ data: { projectId: project.id, name: 'nrf' } })).id,
    };
    const reportId = await storeReport(sha(11), { target });
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    await (await queue.getJob(jobId))!.waitUntilFinished(events, 30_000);
    await copy();
    const stored = await symbolsOf(reportId, 1);
    expect(stored).toHaveLength(sample.symbols.length);
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);

    await clickhouse.command({
      query: purgeStatement('single', 'symbol_blocks_v2', `project_id = '${project.id}'`),
      clickhouse_settings: { mutations_sync: '2' },
    });
    expect((await clickhouseRows(target.targetId)).rows).toBe(0);

    const cli = spawnSync(
      process.execPath,
      ['packages/db/dist/cli/reingest.js', '--project', project.id],
      { env: { ...process.env, DATABASE_URL: stores.databaseUrl }, encoding: 'utf8' },
    );
    expect(cli.stderr).toBe('');
    const blocks = await prisma.symbolBlock.count({ where: { targetId: target.targetId } });
    expect(cli.stdout).toContain(`marked ${blocks} symbol block(s) of project ${project.id}`);
    expect(cli.status).toBe(0);
    // Readable throughout, from Postgres until the blocks are copied.
    expect(await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).toMatchObject({
      status: 'ingested',
      ingestedVersion: 1,
    });
    expect(await symbolsOf(reportId, 1)).toEqual(stored);

    await copy();
    expect((await clickhouseRows(target.targetId)).rows).toBe(sample.symbols.length);
    expect(await symbolsOf(reportId, 1)).toEqual(stored);
  });

  it('finds a lost job behind a backlog of thousands of queued reports', async () => {
    // 1,000 reports pending for an hour, each with its job waiting (delayed here, so none runs).
    const backlog = await prisma.$queryRaw<{ id: string }[]>`
      WITH c AS (
        INSERT INTO commits (project_id, sha)
        SELECT ${projectId}::uuid, 'f' || lpad(to_hex(n), 39, '0') FROM generate_series(1, 1000) n
        RETURNING id)
      INSERT INTO reports (target_id, commit_id, kind, payload_sha256, updated_at)
      SELECT ${targetId}::uuid, c.id, 'full', 'test', now() - interval '1 hour' FROM c
      RETURNING id::text`;
    await queue.addBulk(
      backlog.map(({ id }) => ({
        name: 'ingest' as const,
        data: { reportId: id, version: 1 },
        opts: { jobId: ingestJobId({ reportId: id, version: 1 }), delay: 600_000 },
      })),
    );
    // Pending a little less long than the backlog, so it comes after it; its job was lost.
    const lostId = await storeReport(sha(16));
    await prisma.$executeRaw`UPDATE reports SET updated_at = now() - interval '30 minutes' WHERE id = ${lostId}::uuid`;

    const requeued = async () =>
      (await worker.get(ServiceMetrics).reportsRequeued.get()).values[0]?.value ?? 0;
    const before = await requeued();
    const swept = await worker.get(ReportsSweeper).sweepOnce();
    expect(swept).toContain(lostId);
    const queued = new Set(backlog.map(({ id }) => id));
    expect(swept.filter((id) => queued.has(id))).toEqual([]);
    expect(await requeued()).toBe(before + swept.length);
    const job = await queue.getJob(ingestJobId({ reportId: lostId, version: 1 }));
    await job!.waitUntilFinished(events, 30_000);

    await Promise.all(
      backlog.map(({ id }) => queue.remove(ingestJobId({ reportId: id, version: 1 }))),
    );
    await prisma.report.deleteMany({ where: { id: { in: backlog.map(({ id }) => id) } } });
  });

  it('sweeps from one worker per interval, whichever claims it first in Redis', async () => {
    const config = { ...worker.get(WorkerConfig), SWEEP_INTERVAL_MS: 60_000 };
    const sweepers = [1, 2].map(() => new ReportsSweeper(config, sql, worker.get(ServiceMetrics)));
    try {
      const passes = await Promise.all(sweepers.map((sweeper) => sweeper.tick()));
      expect(passes.filter((pass) => pass === undefined)).toHaveLength(1);
      expect(passes.filter((pass) => Array.isArray(pass))).toHaveLength(1);
      // The claim lasts the interval: no worker sweeps again before it is over.
      expect(await sweepers[0]!.tick()).toBeUndefined();
    } finally {
      await Promise.all(sweepers.map((sweeper) => sweeper.onApplicationShutdown()));
      await connect().del(`${stores.queuePrefix}:reports-sweeper`);
    }
  });

  it('leaves a long-pending report alone while its job still waits in the queue', async () => {
    const reportId = await storeReport(sha(10));
    await prisma.$executeRaw`UPDATE reports SET updated_at = now() - interval '1 hour' WHERE id = ${reportId}::uuid`;
    // A backlog: the job exists but has not run yet.
    const jobId = ingestJobId({ reportId, version: 1 });
    await queue.add('ingest', { reportId, version: 1 }, { jobId, delay: 60_000 });
    expect(await worker.get(ReportsSweeper).sweepOnce()).not.toContain(reportId);
    expect(await queue.getJobState(jobId)).toBe('delayed');
    await queue.remove(jobId);
  });
});
