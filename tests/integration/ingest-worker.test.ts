import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadConfig } from '@memtrail/config';
import { createClickHouse, type ClickHouseClient } from '@memtrail/clickhouse';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import {
  createRedisConnection,
  createReportsQueue,
  enqueueReport,
  QueueNames,
  type ReportsQueue,
} from '@memtrail/queue';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { AppModule } from '../../services/ingest-worker/src/app.module.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import { IngestReportService } from '../../services/ingest-worker/src/ingest/ingest-report.service.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

describe('ingest worker: a real BullMQ job round trip into ClickHouse', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let clickhouse: ClickHouseClient;
  let worker: INestApplicationContext;
  let queue: ReportsQueue;
  let events: QueueEvents;
  const connections: Redis[] = [];
  const connect = () => {
    const connection = createRedisConnection(stores.redisUrl);
    connections.push(connection);
    return connection;
  };
  let targetId: string;
  let projectId: string;

  async function storeReport(sha: string): Promise<string> {
    const envelope: UploadEnvelope = {
      metadata: { git: { commit_hash: sha }, target_name: 'stm32', identical: false },
      memory_analysis: sample,
    };
    const commit = await prisma.commit.create({
      data: { projectId, sha, committedAt: new Date('2026-11-01T10:00:00Z') },
    });
    const report = await prisma.report.create({
      data: {
        targetId,
        commitId: commit.id,
        kind: 'full',
        payload: gzipSync(JSON.stringify(envelope)),
        payloadSha256: 'test',
      },
    });
    return report.id;
  }

  async function regionRows(reportId: string) {
    const result = await clickhouse.query({
      query:
        'SELECT name, used_size, limit_size FROM regions_v1 WHERE report_id = {id:String} ORDER BY name',
      query_params: { id: reportId },
      format: 'JSONEachRow',
    });
    return result.json<{ name: string; used_size: number; limit_size: number }>();
  }

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    const project = await prisma.project.create({ data: { name: 'Sample', ownerId: owner.id } });
    projectId = project.id;
    targetId = (await prisma.target.create({ data: { projectId, name: 'stm32' } })).id;

    const config = loadConfig(WorkerConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      CLICKHOUSE_URL: stores.clickhouseUrl,
      CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
      QUEUE_PREFIX: stores.queuePrefix,
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

  it('consumes an enqueued report, writes its regions and marks it ingested', async () => {
    const reportId = await storeReport('a'.repeat(40));
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    const job = await queue.getJob(jobId);
    const result = await job!.waitUntilFinished(events, 30_000);
    expect(result).toMatchObject({ status: 'ingested', reportId, regions: 3 });

    expect(await regionRows(reportId)).toEqual([
      { name: 'CCMRAM', used_size: 0, limit_size: 65536 },
      { name: 'FLASH', used_size: 413, limit_size: 262144 },
      { name: 'RAM', used_size: 3720, limit_size: 65536 },
    ]);
    const stored = await prisma.report.findUniqueOrThrow({ where: { id: reportId } });
    expect(stored.status).toBe('ingested');
    expect(stored.ingestedAt).toBeInstanceOf(Date);
  });

  it('never doubles rows when the same report version is ingested again', async () => {
    const reportId = await storeReport('b'.repeat(40));
    const ingest = worker.get(IngestReportService);
    await ingest.ingest({ reportId, version: 1 });
    await ingest.ingest({ reportId, version: 1 });
    expect(await regionRows(reportId)).toHaveLength(3);
  });

  it('skips a job for a version that has since been overwritten', async () => {
    const reportId = await storeReport('c'.repeat(40));
    await prisma.report.update({ where: { id: reportId }, data: { version: 2 } });
    const outcome = await worker.get(IngestReportService).ingest({ reportId, version: 1 });
    expect(outcome).toEqual({ status: 'stale', reportId, version: 1, current: 2 });
    expect(await regionRows(reportId)).toHaveLength(0);
  });

  it('fails a job for a missing report at once, with the id in the reason', async () => {
    const reportId = '00000000-0000-4000-8000-000000000000';
    const jobId = await enqueueReport(queue, { reportId, version: 1 });
    const job = await queue.getJob(jobId);
    await expect(job!.waitUntilFinished(events, 30_000)).rejects.toThrow(
      `report ${reportId} not found`,
    );
    const failed = await queue.getJob(jobId);
    expect(failed!.attemptsMade).toBe(1);
  });
});
