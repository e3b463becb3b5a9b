import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { loadConfig } from '@memtrail/config';
import { createClickHouse, migrate, type ClickHouseClient } from '@memtrail/clickhouse';
import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';
import { createPrismaClient, createSqlPool, type PrismaClient, type SqlPool } from '@memtrail/db';
import {
  createRedisConnection,
  createReportsQueue,
  enqueueReport,
  type ReportsQueue,
} from '@memtrail/queue';
import {
  createIsolatedStores,
  eventually,
  freePort,
  projectData,
  type IsolatedStores,
} from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { call, startGateway } from '../../services/gateway/test/support/gateway-harness.js';
import { AppModule } from '../../services/ingest-worker/src/app.module.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import { storedSymbols, storeVersion } from './support/stored-reports.js';
import { startIngestWorker } from './support/read-services.js';

// These tests kill and restart real processes, so they run the built entry points
// (`npm test` builds first; alone, run `npm run build` once).
const root = new URL('../../', import.meta.url).pathname;
const workerMain = join(root, 'services/ingest-worker/dist/main.js');
const clickhouseMain = join(root, 'packages/embedded-clickhouse/dist/bin.js');

function run(main: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
  const child = spawn(process.execPath, [main, ...args], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.once('exit', () => resolve()),
  );

function syntheticReport(symbolCount: number): MemoryReport {
  const symbols: ReportSymbol[] = Array.from({ length: symbolCount }, (_, i) => ({
    name: `fn_${i}`,
    address: 0x0800_0000 + i * 16,
    size: 16,
    type: 'FUNC',
    binding: 'GLOBAL',
    section: '.text',
    source_file: `src/module_${i % 200}/file_${i % 37}.c`,
    source_line: i % 1000,
    visibility: 'DEFAULT',
    archive: '',
    object_file: `file_${i % 37}.o`,
  }));
  return {
    file_path: 'fw.elf',
    architecture: 'ARM',
    toolchain: 'gcc-12.2.1',
    entry_point: 0x0800_0000,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    symbols,
    program_headers: [],
    memory_layout: {
      FLASH: {
        address: 0x0800_0000,
        limit_size: 8 * 1024 * 1024,
        type: 'FLASH',
        used_size: symbolCount * 16,
        free_size: 8 * 1024 * 1024 - symbolCount * 16,
        utilization_percent: 0,
        sections: [
          {
            name: '.text',
            address: 0x0800_0000,
            size: symbolCount * 16,
            type: 'code',
            end_address: 0x0800_0000 + symbolCount * 16,
          },
        ],
      },
    },
  };
}

describe('ingestion survives crashes and outages', () => {
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let sql: SqlPool;
  let queue: ReportsQueue;
  let redis: Redis;
  let targetId: string;
  let projectId: string;
  let commitCounter = 0;
  const children: ChildProcess[] = [];

  async function storeReport(report: MemoryReport, target = targetId): Promise<string> {
    const sha = (++commitCounter).toString(16).padStart(40, '0');
    const commit = await prisma.commit.create({ data: { projectId, sha } });
    const row = await prisma.report.create({
      data: { targetId: target, commitId: commit.id, kind: 'full', payloadSha256: 'test' },
    });
    await storeVersion(
      prisma,
      row.id,
      1,
      { metadata: {} as never, memory_analysis: report },
      'full',
    );
    return row.id;
  }

  /** Symbol rows of a target's blocks in ClickHouse, and how many of them are distinct. */
  async function blockRows(clickhouse: ClickHouseClient, target: string) {
    const result = await clickhouse.query({
      query: `SELECT count() AS rows, uniqExact(block_hash, ordinal) AS distinct
              FROM symbol_blocks_v2 WHERE target_id = {target:String}`,
      query_params: { target },
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ rows: number | string; distinct: number | string }>();
    return { rows: Number(row!.rows), distinct: Number(row!.distinct) };
  }

  const status = async (id: string) =>
    (await prisma.report.findUniqueOrThrow({ where: { id } })).status;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    sql = createSqlPool(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'owner@example.com' } });
    projectId = (await prisma.project.create({ data: projectData('Resilience', owner.id) })).id;
    targetId = (await prisma.target.create({ data: { projectId, name: 'stm32' } })).id;
    redis = createRedisConnection(stores.redisUrl);
    queue = createReportsQueue({ connection: redis, prefix: stores.queuePrefix });
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await queue?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
    await sql?.end();
    await stores?.cleanup();
  });

  /** Blocks of a target that wait in Postgres for ClickHouse. */
  const waitingBlocks = (target: string) =>
    prisma.symbolBlock.count({ where: { targetId: target, inClickhouse: false } });

  it('a worker killed while copying a large report to ClickHouse: the next copies it, every row once', async () => {
    const clickhouse = createClickHouse({
      url: stores.clickhouseUrl,
      database: stores.clickhouseDatabase,
    });
    const env = {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      QUEUE_PREFIX: stores.queuePrefix,
      CLICKHOUSE_URL: stores.clickhouseUrl,
      CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
      WORKER_LOCK_MS: '2000',
      WORKER_COPY_AGE_MS: '0',
      SWEEP_INTERVAL_MS: '0',
      LOG_LEVEL: 'error',
    };
    const symbolCount = 120_000;
    const reportId = await storeReport(syntheticReport(symbolCount));
    const first = run(workerMain, [], env);
    children.push(first);
    let second: ChildProcess | undefined;
    try {
      await enqueueReport(queue, { reportId, version: 1 });
      // Kill it once some, but not all, inserts of its blocks are in ClickHouse. The report was
      // readable before: ingestion does not wait for ClickHouse.
      const partial = await eventually(
        () => blockRows(clickhouse, targetId),
        (s) => s.rows > 0,
        { timeoutMs: 180_000, intervalMs: 10 },
      );
      first.kill('SIGKILL');
      await exited(first);
      expect(partial.rows).toBeLessThan(symbolCount);
      expect(await status(reportId)).toBe('ingested');
      expect(await waitingBlocks(targetId)).toBeGreaterThan(0);
      expect(await storedSymbols(sql, clickhouse, reportId, 1)).toHaveLength(symbolCount);

      second = run(workerMain, [], env);
      children.push(second);
      await eventually(
        () => waitingBlocks(targetId),
        (n) => n === 0,
        { timeoutMs: 180_000, intervalMs: 200 },
      );
      expect(await blockRows(clickhouse, targetId)).toEqual({
        rows: symbolCount,
        distinct: symbolCount,
      });
      expect(await storedSymbols(sql, clickhouse, reportId, 1)).toHaveLength(symbolCount);
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGTERM');
      await Promise.all([exited(first), second ? exited(second) : undefined]);
      await clickhouse.close();
    }
  }, 600_000);

  it('Redis flushed after uploads were acknowledged: the sweeper re-enqueues and nothing is lost', async () => {
    const gw = await startGateway(stores);
    let worker: INestApplicationContext | undefined;
    try {
      const owner = await prisma.user.create({ data: { email: 'flush@example.com' } });
      const { apiKey } = await createProjectWithKey(prisma, owner.id, 'Flush');
      const ids: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const result = await call<{ data: { report_id: string } }>(gw.url, 'POST', '/upload', {
          headers: { authorization: `Bearer ${apiKey}` },
          body: {
            metadata: { git: { commit_hash: `f${i}`.padEnd(40, '0') }, target_name: 'stm32' },
            memory_analysis: syntheticReport(50 * i),
          },
        });
        expect(result.status).toBe(200);
        ids.push(result.body.data.report_id);
      }
      // Everything this deployment had in Redis is gone, queued jobs included.
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(
          cursor,
          'MATCH',
          `${stores.queuePrefix}:*`,
          'COUNT',
          1000,
        );
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');

      worker = await startIngestWorker(stores, {
        SWEEP_INTERVAL_MS: '300',
        SWEEP_AFTER_MS: '1000',
      });
      for (const id of ids)
        await eventually(
          () => status(id),
          (s) => s === 'ingested',
          { timeoutMs: 120_000 },
        );
      const clickhouse = createClickHouse({
        url: stores.clickhouseUrl,
        database: stores.clickhouseDatabase,
      });
      for (const [i, id] of ids.entries())
        expect(await storedSymbols(sql, clickhouse, id, 1)).toHaveLength(50 * (i + 1));
      const { targetId: flushed } = await prisma.report.findUniqueOrThrow({
        where: { id: ids[0]! },
      });
      const stats = await blockRows(clickhouse, flushed);
      expect(stats.rows).toBe(stats.distinct);
      await clickhouse.close();
    } finally {
      await worker?.close();
      await gw.close();
    }
  }, 300_000);

  it('ClickHouse down: reports are ingested and readable, their blocks copied once it is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memtrail-ch-outage-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const startClickHouse = async () => {
      const child = run(clickhouseMain, ['--data-dir', dataDir, '--port', String(port)], {});
      children.push(child);
      await eventually(
        () =>
          fetch(`${url}/ping`)
            .then((r) => r.ok)
            .catch(() => false),
        (ok) => ok,
        { timeoutMs: 120_000 },
      );
      return child;
    };
    let server = await startClickHouse();
    await migrate({ url, database: 'outage' });
    const config = loadConfig(WorkerConfig, {
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      QUEUE_PREFIX: stores.queuePrefix,
      CLICKHOUSE_URL: url,
      CLICKHOUSE_DATABASE: 'outage',
      WORKER_COPY_AGE_MS: '0',
      WORKER_COPY_INTERVAL_MS: '200',
      SWEEP_INTERVAL_MS: '0',
    });
    const worker: INestApplicationContext = await NestFactory.createApplicationContext(
      AppModule.register(config),
      { logger: process.env.TEST_CHILD_LOGS ? ['warn', 'error'] : false },
    );
    await worker.init();
    try {
      server.kill('SIGKILL');
      await exited(server);
      // A target of its own: Postgres records which blocks ClickHouse holds, and this test's
      // ClickHouse is a server of its own.
      const target = (await prisma.target.create({ data: { projectId, name: 'outage' } })).id;
      const ids = [
        await storeReport(syntheticReport(100), target),
        await storeReport(syntheticReport(200), target),
      ];
      for (const reportId of ids) await enqueueReport(queue, { reportId, version: 1 });
      for (const id of ids)
        await eventually(
          () => status(id),
          (s) => s === 'ingested',
          { timeoutMs: 120_000 },
        );
      const clickhouse = createClickHouse({ url, database: 'outage' });
      expect(await storedSymbols(sql, clickhouse, ids[0]!, 1)).toHaveLength(100);
      expect(await storedSymbols(sql, clickhouse, ids[1]!, 1)).toHaveLength(200);
      // Several copy passes failed meanwhile, none of them claiming a block.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const blocks = await prisma.symbolBlock.findMany({ where: { targetId: target } });
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks)
        expect(block).toMatchObject({ inClickhouse: false, writeAttempts: 0 });

      server = await startClickHouse();
      await eventually(
        () => waitingBlocks(target),
        (n) => n === 0,
        { timeoutMs: 120_000 },
      );
      const stats = await blockRows(clickhouse, target);
      // The two builds share their first blocks: each block once.
      expect(stats.rows).toBe(blocks.reduce((sum, b) => sum + b.symbolCount, 0));
      expect(stats.rows).toBe(stats.distinct);
      await clickhouse.close();
    } finally {
      await worker.close();
      server.kill('SIGTERM');
      await exited(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
