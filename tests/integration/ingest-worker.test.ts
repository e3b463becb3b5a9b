import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue, QueueEvents, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadConfig } from '@memtrail/config';
import { createClickHouse, deleteStatement, type ClickHouseClient } from '@memtrail/clickhouse';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import { createPrismaClient, type PrismaClient, type ReportKind } from '@memtrail/db';
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
import { AppModule } from '../../services/ingest-worker/src/app.module.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import {
  IngestReportService,
  ParentNotIngestedError,
} from '../../services/ingest-worker/src/ingest/ingest-report.service.js';
import { ReportsSweeper } from '../../services/ingest-worker/src/ingest/reports-sweeper.js';
import { StoredReports } from '../../services/ingest-worker/src/ingest/stored-reports.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

const sha = (n: number) => n.toString(16).padStart(40, '0');

describe('ingest worker: reports from Postgres into ClickHouse', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
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

  async function storeReport(
    commit: string,
    options: {
      report?: MemoryReport;
      kind?: ReportKind;
      parentSha?: string;
      payload?: Buffer;
      /** Another project's target; the suite's own by default. */
      target?: { projectId: string; targetId: string };
    } = {},
  ): Promise<string> {
    const target = options.target ?? { projectId, targetId };
    const envelope: UploadEnvelope = {
      metadata: { git: { commit_hash: commit }, target_name: 'stm32', identical: false },
      memory_analysis: options.report ?? sample,
    };
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
        kind: options.kind ?? 'full',
        parentSha: options.parentSha ?? null,
        payload: (options.payload ?? gzipSync(JSON.stringify(envelope))) as Uint8Array<ArrayBuffer>,
        payloadSha256: 'test',
      },
    });
    return report.id;
  }

  async function rows<T>(
    table: string,
    reportId: string,
    columns: string,
    version?: number,
  ): Promise<T[]> {
    const result = await clickhouse.query({
      query: `SELECT ${columns} FROM ${table} WHERE report_id = {id:String}
              ${version === undefined ? '' : 'AND ingest_version = {version:UInt64}'} ORDER BY ${columns.split(',')[0]}`,
      query_params: { id: reportId, version },
      format: 'JSONEachRow',
    });
    return result.json<T>();
  }

  const ingest = () => worker.get(IngestReportService);

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    const project = await prisma.project.create({ data: projectData('Sample', owner.id) });
    projectId = project.id;
    targetId = (await prisma.target.create({ data: { projectId, name: 'stm32' } })).id;

    const config = loadConfig(WorkerConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      CLICKHOUSE_URL: stores.clickhouseUrl,
      CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
      QUEUE_PREFIX: stores.queuePrefix,
      SWEEP_INTERVAL_MS: '0',
      SWEEP_AFTER_MS: '1000',
      WORKER_PARENT_WAIT_MS: '300',
    });
    worker = await NestFactory.createApplicationContext(AppModule.register(config), {
      logger: false,
    });
    await worker.init();
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
    await clickhouse?.close();
    await stores?.cleanup();
  });

  it('consumes an enqueued report and writes its regions, sections and every symbol', async () => {
    const reportId = await storeReport(sha(1));
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    const result = await (await queue.getJob(jobId))!.waitUntilFinished(events, 30_000);
    expect(result).toMatchObject({
      status: 'ingested',
      rows: { regions_v1: 3, sections_v1: 7, symbols_v1: sample.symbols.length },
    });

    expect(await rows(`regions_v1`, reportId, 'name, used_size, limit_size')).toEqual([
      { name: 'CCMRAM', used_size: 0, limit_size: 65536 },
      { name: 'FLASH', used_size: 413, limit_size: 262144 },
      { name: 'RAM', used_size: 3720, limit_size: 65536 },
    ]);
    const symbols = await rows<Record<string, unknown>>(
      'symbols_v1',
      reportId,
      'symbol_index, name, address, size, type, binding, section, source_file, source_line, visibility, archive, object_file',
    );
    expect(symbols).toEqual(
      sample.symbols.map((s, i) => ({
        symbol_index: i,
        name: s.name,
        address: s.address,
        size: s.size,
        type: s.type,
        binding: s.binding,
        section: s.section,
        source_file: s.source_file,
        source_line: s.source_line,
        visibility: s.visibility,
        archive: s.archive,
        object_file: s.object_file,
      })),
    );
    const stored = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(stored).toMatchObject({ status: 'ingested', ingestedVersion: 1 });
    // Every insert is timed and its rows counted, by table.
    const metrics = await worker.get(ServiceMetrics).registry.metrics();
    expect(metrics).toMatch(
      /memtrail_clickhouse_insert_duration_seconds_count\{service="ingest-worker",table="symbols_v1"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /memtrail_clickhouse_rows_inserted_total\{table="symbols_v1",service="ingest-worker"\} [1-9]/,
    );
  });

  /** Sum of sizes per view table for a report, to check views never count a row twice. */
  async function viewSums(reportId: string): Promise<Record<string, number>> {
    const sums: Record<string, number> = {};
    for (const table of ['file_sizes_v1', 'section_bytes_v1']) {
      const result = await clickhouse.query({
        query: `SELECT sum(size) AS size FROM ${table} WHERE report_id = {id:String}`,
        query_params: { id: reportId },
        format: 'JSONEachRow',
      });
      sums[table] = Number((await result.json<{ size: string }>())[0]?.size);
    }
    return sums;
  }
  const sampleBytes = sample.symbols.reduce((sum, s) => sum + s.size, 0);

  /** What a worker killed after its ClickHouse inserts, before marking the reports, leaves. */
  const crashBeforeMarking = (ids: string[]) =>
    prisma.report.updateMany({
      where: { id: { in: ids } },
      data: { status: 'pending', ingestedVersion: null, ingestedAt: null },
    });

  it('writes reports prepared at the same time in one batch, recorded on each report', async () => {
    const ids = await Promise.all([21, 22, 23, 24].map((n) => storeReport(sha(n))));
    const outcomes = await Promise.all(ids.map((reportId) => ingest().ingest({ reportId })));
    for (const [i, reportId] of ids.entries()) {
      expect(outcomes[i]).toMatchObject({
        status: 'ingested',
        reportId,
        batchSize: 4,
        rows: { regions_v1: 3, sections_v1: 7, symbols_v1: sample.symbols.length },
      });
      const symbols = await rows<{ name: string; commit_sha: string }>(
        'symbols_v1',
        reportId,
        'symbol_index, name, commit_sha',
      );
      expect(symbols.map((s) => s.name)).toEqual(sample.symbols.map((s) => s.name));
      expect(new Set(symbols.map((s) => s.commit_sha))).toEqual(
        new Set([sha([21, 22, 23, 24][i]!)]),
      );
      expect(await viewSums(reportId)).toEqual({
        file_sizes_v1: sampleBytes,
        section_bytes_v1: sampleBytes,
      });
    }
    const stored = await prisma.report.findMany({ where: { id: { in: ids } } });
    expect(new Set(stored.map((r) => r.ingestBatchId)).size).toBe(1);
    expect(await worker.get(ServiceMetrics).registry.metrics()).toMatch(
      /memtrail_ingest_batch_reports_bucket\{le="4",service="ingest-worker"\} [1-9]/,
    );
    expect(stored.map((r) => [r.status, r.ingestedVersion, r.ingestBatchVersion])).toEqual(
      ids.map(() => ['ingested', 1, 1]),
    );
  });

  it('fails a report with a value ClickHouse cannot store alone; the others of its batch ingest', async () => {
    // Stored before the gateway refused such values: a fractional size in a UInt64 column.
    const bad = {
      ...sample,
      symbols: [{ ...sample.symbols[0]!, size: 2.5 }, ...sample.symbols.slice(1)],
    };
    const ids = await Promise.all([
      storeReport(sha(40)),
      storeReport(sha(41), { report: bad }),
      storeReport(sha(42)),
    ]);
    const outcomes = await Promise.allSettled(ids.map((reportId) => ingest().ingest({ reportId })));
    expect(outcomes[1]).toMatchObject({
      status: 'rejected',
      reason: {
        name: 'UnrecoverableError',
        message: `report ${ids[1]}: symbols_v1 row 0: size 2.5 is not a UInt64`,
      },
    });
    for (const i of [0, 2]) {
      expect(outcomes[i]).toMatchObject({ status: 'fulfilled', value: { batchSize: 2 } });
      expect(await rows('symbols_v1', ids[i]!, 'name')).toHaveLength(sample.symbols.length);
    }
    expect(await rows('symbols_v1', ids[1]!, 'name')).toHaveLength(0);
    const stored = await prisma.report.findUniqueOrThrow({ where: { id: ids[1] } });
    expect(stored.ingestBatchId).toBeNull();
  });

  it('replays a batch recorded with an unreadable report without it; the rest ingests', async () => {
    // A batch recorded before values were checked, whose writing never finished.
    const bad = { ...sample, symbols: [{ ...sample.symbols[0]!, address: -8 }] };
    const [good, unreadable] = await Promise.all([
      storeReport(sha(43)),
      storeReport(sha(44), { report: bad }),
    ]);
    await worker.get(StoredReports).joinBatch('00000000-0000-4000-8000-0000000000b1', [
      { id: good!, version: 1 },
      { id: unreadable!, version: 1 },
    ]);
    const [first, second] = await Promise.allSettled(
      [good!, unreadable!].map((reportId) => ingest().ingest({ reportId, version: 1 })),
    );
    expect(first).toMatchObject({
      status: 'fulfilled',
      value: { status: 'ingested', batchSize: 1 },
    });
    expect(second).toMatchObject({
      status: 'rejected',
      reason: { name: 'UnrecoverableError', message: expect.stringContaining('address -8') },
    });
    expect(await rows('symbols_v1', good!, 'name')).toHaveLength(sample.symbols.length);
  });

  it('never doubles rows when a batch is written again after a crash before marking', async () => {
    const ids = await Promise.all([25, 26, 27].map((n) => storeReport(sha(n))));
    await Promise.all(ids.map((reportId) => ingest().ingest({ reportId })));
    await crashBeforeMarking(ids);

    // The retried jobs write their whole batch again, once, under the same token.
    const retried = await Promise.all(
      [ids[1]!, ids[2]!].map((reportId) => ingest().ingest({ reportId, version: 1 })),
    );
    expect(retried).toMatchObject([
      { status: 'ingested', reportId: ids[1], batchSize: 3 },
      { status: 'ingested', reportId: ids[2], batchSize: 3 },
    ]);
    for (const reportId of ids) {
      expect(await rows('symbols_v1', reportId, 'name')).toHaveLength(sample.symbols.length);
      expect(await rows('regions_v1', reportId, 'name')).toHaveLength(3);
      expect(await rows('sections_v1', reportId, 'name')).toHaveLength(7);
      // The materialized views' tables must not sum the repeated insert a second time.
      expect(await viewSums(reportId)).toEqual({
        file_sizes_v1: sampleBytes,
        section_bytes_v1: sampleBytes,
      });
    }
    const stored = await prisma.report.findMany({ where: { id: { in: ids } } });
    expect(stored.map((r) => r.status)).toEqual(['ingested', 'ingested', 'ingested']);
    // The other reports' own retried jobs then have nothing left to do.
    expect(await ingest().ingest({ reportId: ids[0]!, version: 1 })).toMatchObject({
      status: 'already_ingested',
    });
  });

  it('never doubles rows when a batch is written again after ClickHouse forgot its token', async () => {
    const ids = await Promise.all([30, 31].map((n) => storeReport(sha(n))));
    await Promise.all(ids.map((reportId) => ingest().ingest({ reportId })));
    await crashBeforeMarking(ids);
    // More inserts than the deduplication window holds have happened since: shrink the window
    // to one insert, make one, and restore it.
    for (const table of ['regions_v1', 'sections_v1', 'symbols_v1']) {
      await clickhouse.command({
        query: `ALTER TABLE ${table} MODIFY SETTING non_replicated_deduplication_window = 1`,
      });
      await clickhouse.command({
        query: `INSERT INTO ${table} (report_id) SETTINGS insert_deduplication_token = 'other' VALUES ('other')`,
      });
      await clickhouse.command({
        query: `ALTER TABLE ${table} MODIFY SETTING non_replicated_deduplication_window = 1000`,
      });
    }

    expect(await ingest().ingest({ reportId: ids[0]!, version: 1 })).toMatchObject({
      status: 'ingested',
      batchSize: 2,
    });
    for (const reportId of ids) {
      expect(await rows('symbols_v1', reportId, 'name')).toHaveLength(sample.symbols.length);
      expect(await rows('regions_v1', reportId, 'name')).toHaveLength(3);
      expect(await rows('sections_v1', reportId, 'name')).toHaveLength(7);
    }
  });

  it('replays a batch without a report overwritten meanwhile; the new version gets a batch of its own', async () => {
    const [kept, overwritten] = await Promise.all([28, 29].map((n) => storeReport(sha(n))));
    await Promise.all(
      [kept, overwritten].map((reportId) => ingest().ingest({ reportId: reportId! })),
    );
    await crashBeforeMarking([kept!, overwritten!]);
    const smaller = { ...sample, symbols: sample.symbols.slice(0, 4) };
    await prisma.report.update({
      where: { id: overwritten },
      data: {
        version: 2,
        payload: gzipSync(JSON.stringify({ metadata: {}, memory_analysis: smaller })),
      },
    });

    expect(await ingest().ingest({ reportId: kept!, version: 1 })).toMatchObject({
      status: 'ingested',
      batchSize: 1,
    });
    expect(await ingest().ingest({ reportId: overwritten!, version: 1 })).toMatchObject({
      status: 'stale',
    });
    expect(await ingest().ingest({ reportId: overwritten!, version: 2 })).toMatchObject({
      status: 'ingested',
      batchSize: 1,
      rows: { symbols_v1: 4 },
    });
    expect(await rows('symbols_v1', kept!, 'name')).toHaveLength(sample.symbols.length);
    expect(await rows('symbols_v1', overwritten!, 'name', 2)).toHaveLength(4);
    const [a, b] = await Promise.all(
      [kept!, overwritten!].map((id) => prisma.report.findUniqueOrThrow({ where: { id } })),
    );
    expect([a!.ingestedVersion, b!.ingestedVersion]).toEqual([1, 2]);
    expect(b!.ingestBatchId).not.toBe(a!.ingestBatchId);
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
    const reportId = await storeReport(sha(20), { report });
    await ingest().ingest({ reportId, version: 1 });
    const stored = await rows<{ symbol_index: number; name: string; source_file: string }>(
      'symbols_v1',
      reportId,
      'symbol_index, name, source_file',
    );
    expect(stored).toEqual(
      names.map((name, i) => ({ symbol_index: i, name, source_file: `dir\t${name}/file.c` })),
    );
  });

  it('skips a job for a version that has since been overwritten', async () => {
    const reportId = await storeReport(sha(3));
    await prisma.report.update({ where: { id: reportId }, data: { version: 2 } });
    const outcome = await ingest().ingest({ reportId, version: 1 });
    expect(outcome).toEqual({ status: 'stale', reportId, version: 1, current: 2 });
    expect(await rows('regions_v1', reportId, 'name')).toHaveLength(0);
  });

  it('replaces an overwritten report: the old version stays readable until the new one is complete', async () => {
    const reportId = await storeReport(sha(4));
    await ingest().ingest({ reportId, version: 1 });
    const smaller = { ...sample, symbols: sample.symbols.slice(0, 5) };
    await prisma.report.update({
      where: { id: reportId },
      data: {
        version: 2,
        status: 'pending',
        payload: gzipSync(JSON.stringify({ metadata: {}, memory_analysis: smaller })),
      },
    });
    // Before the new version is ingested, readers still find version 1 complete.
    const pending = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(pending.ingestedVersion).toBe(1);
    expect(await rows('symbols_v1', reportId, 'name', 1)).toHaveLength(sample.symbols.length);

    await ingest().ingest({ reportId, version: 2 });
    const done = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(done).toMatchObject({ status: 'ingested', ingestedVersion: 2 });
    expect(await rows('symbols_v1', reportId, 'name', 2)).toHaveLength(5);
    // The superseded rows are gone.
    expect(await rows('symbols_v1', reportId, 'name', 1)).toHaveLength(0);
    expect(await rows('file_sizes_v1', reportId, 'source_file', 1)).toHaveLength(0);
  });

  it("gives an identical report its parent's rows, waiting while the parent is not ingested", async () => {
    const parentId = await storeReport(sha(5));
    const childId = await storeReport(sha(6), { kind: 'identical', parentSha: sha(5) });
    await expect(ingest().ingest({ reportId: childId, version: 1 })).rejects.toBeInstanceOf(
      ParentNotIngestedError,
    );

    await ingest().ingest({ reportId: parentId, version: 1 });
    const outcome = await ingest().ingest({ reportId: childId, version: 1 });
    expect(outcome).toMatchObject({ rows: { regions_v1: 3, symbols_v1: sample.symbols.length } });
    const child = await rows<{ name: string; size: number; commit_sha: string }>(
      'symbols_v1',
      childId,
      'name, size, commit_sha',
    );
    const parent = await rows<{ name: string; size: number }>('symbols_v1', parentId, 'name, size');
    expect(child.map(({ name, size }) => ({ name, size }))).toEqual(parent);
    expect(new Set(child.map((r) => r.commit_sha))).toEqual(new Set([sha(6)]));
  });

  it('keeps an identical build waiting for its parent without using up its attempts', async () => {
    const parentId = await storeReport(sha(14));
    const childId = await storeReport(sha(15), { kind: 'identical', parentSha: sha(14) });
    const childJob = await enqueueReport(queue, { reportId: childId, version: 1 });
    // Several looks for the parent's rows (one every 300 ms), more than backoff would allow.
    await sleep(2000);
    // Between looks it is delayed; at a look, briefly waiting or active; never finished.
    expect(await queue.getJobState(childJob)).not.toMatch(/completed|failed/);
    expect((await queue.getJob(childJob))!.attemptsMade).toBe(0);
    // Waiting is not failing, in the metrics either.
    const durations = await worker.get(ServiceMetrics).jobDuration.get();
    const delayed = durations.values.find(
      (v) => v.metricName?.endsWith('_count') && v.labels.outcome === 'delayed',
    );
    expect(delayed?.value).toBeGreaterThanOrEqual(2);

    await enqueueReport(queue, { reportId: parentId, version: 1 });
    await (await queue.getJob(childJob))!.waitUntilFinished(events, 30_000);
    expect(await prisma.report.findUniqueOrThrow({ where: { id: childId } })).toMatchObject({
      status: 'ingested',
      ingestedVersion: 1,
    });
    expect(await rows('symbols_v1', childId, 'name')).toHaveLength(sample.symbols.length);
  });

  it('fails an identical report at once when its parent failed for good', async () => {
    await storeReport(sha(12), { payload: Buffer.from('not gzip') });
    await prisma.$executeRaw`UPDATE reports r SET status = 'failed', last_error = 'stored payload is unreadable'
      FROM commits c WHERE c.id = r.commit_id AND c.sha = ${sha(12)}`;
    const childId = await storeReport(sha(13), { kind: 'identical', parentSha: sha(12) });
    const failure = ingest().ingest({ reportId: childId, version: 1 });
    await expect(failure).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(failure).rejects.toThrow(
      `parent ${sha(12)} failed to ingest (stored payload is unreadable)`,
    );
  });

  it('marks a report failed, with the reason, when its job fails for good', async () => {
    const reportId = await storeReport(sha(7), { payload: Buffer.from('not gzip') });
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

  it("removes a deleted project's rows from every table", async () => {
    const reportId = await storeReport(sha(9));
    await ingest().ingest({ reportId, version: 1 });
    expect(await rows('symbols_v1', reportId, 'name')).not.toHaveLength(0);
    const purges = new Queue<ProjectPurgeJob>(QueueNames.projectClickHousePurges, {
      connection: connect(),
      prefix: stores.queuePrefix,
    });
    await purges.add('purge', { projectId }, { jobId: `project-${projectId}` });
    expect(await rows('file_sizes_v1', reportId, 'source_file')).not.toHaveLength(0);
    await eventually(
      async () =>
        (await rows('symbols_v1', reportId, 'name')).length +
        (await rows('regions_v1', reportId, 'name')).length +
        (await rows('file_sizes_v1', reportId, 'source_file')).length +
        (await rows('section_bytes_v1', reportId, 'section')).length,
      (n) => n === 0,
    );
    await purges.close();
  });

  it('writes cluster deletes ClickHouse can parse, for every table a report has', async () => {
    // No cluster runs here: ClickHouse parses the statements the worker sends on one.
    for (const table of ['symbols_v1', 'file_sizes_v1', 'section_bytes_v1']) {
      const statement = deleteStatement(
        'cluster',
        table,
        "report_id = 'it''s' AND ingest_version < 2",
      );
      const result = await clickhouse.query({
        query: `EXPLAIN AST ${statement}`,
        format: 'TabSeparated',
      });
      expect(await result.text()).toContain(`DeleteQuery  ${table}_local`);
    }
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

  it('writes every row again after ClickHouse lost them, once `reingest` marked the reports', async () => {
    // A project of its own: reingest marks every report of the project it is given.
    const owner = await prisma.user.findFirstOrThrow();
    const project = await prisma.project.create({ data: projectData('Rebuilt', owner.id) });
    const target = {
      projectId: project.id,
      targetId: (await prisma.target.create({ data: { projectId: project.id, name: 'nrf' } })).id,
    };
    const reportId = await storeReport(sha(11), { target });
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    await (await queue.getJob(jobId))!.waitUntilFinished(events, 30_000);
    const columns = 'symbol_index, name, address, size, source_file';
    const stored = await rows('symbols_v1', reportId, columns);
    expect(stored).toHaveLength(sample.symbols.length);

    for (const table of ['symbols_v1', 'regions_v1', 'sections_v1', 'file_sizes_v1']) {
      await clickhouse.command({
        query: deleteStatement('single', table, `report_id = '${reportId}'`),
      });
    }
    expect(await rows('symbols_v1', reportId, columns)).toHaveLength(0);

    const cli = spawnSync(
      process.execPath,
      ['packages/db/dist/cli/reingest.js', '--project', project.id],
      { env: { ...process.env, DATABASE_URL: stores.databaseUrl }, encoding: 'utf8' },
    );
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toContain(`marked 1 report(s) of project ${project.id}`);
    expect(cli.status).toBe(0);
    const marked = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(marked).toMatchObject({ version: 2, status: 'pending', ingestedVersion: null });

    await prisma.$executeRaw`UPDATE reports SET updated_at = now() - interval '1 hour' WHERE id = ${reportId}::uuid`;
    expect(await worker.get(ReportsSweeper).sweepOnce()).toContain(reportId);
    const again = await queue.getJob(ingestJobId({ reportId, version: 2 }));
    await again!.waitUntilFinished(events, 30_000);
    expect(await rows('symbols_v1', reportId, columns, 2)).toEqual(stored);
    expect(await rows('file_sizes_v1', reportId, 'source_file', 2)).not.toHaveLength(0);
    expect(await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).toMatchObject({
      status: 'ingested',
      ingestedVersion: 2,
    });
  });

  it('finds a lost job behind a backlog of thousands of queued reports', async () => {
    // 1,000 reports pending for an hour, each with its job waiting (delayed here, so none runs).
    const backlog = await prisma.$queryRaw<{ id: string }[]>`
      WITH c AS (
        INSERT INTO commits (project_id, sha)
        SELECT ${projectId}::uuid, 'f' || lpad(to_hex(n), 39, '0') FROM generate_series(1, 1000) n
        RETURNING id)
      INSERT INTO reports (target_id, commit_id, kind, payload, payload_sha256, updated_at)
      SELECT ${targetId}::uuid, c.id, 'full', decode('00', 'hex'), 'test', now() - interval '1 hour' FROM c
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
    const sweepers = [1, 2].map(
      () => new ReportsSweeper(config, prisma, worker.get(ServiceMetrics)),
    );
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
