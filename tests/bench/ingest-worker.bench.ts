/**
 * `npm run bench:ingest-worker`: the ingest worker's own write path, without the gateway or the
 * queue. Stores BENCH_REPORTS reports of BENCH_SYMBOLS symbols in an isolated Postgres database
 * (createIsolatedStores: the running stack's servers, a fresh database and ClickHouse database),
 * times each step of one report (payload load, gunzip + JSON.parse, rows, ClickHouse inserts,
 * marking it ingested), then ingests every report through IngestReportService with
 * BENCH_CONCURRENCY jobs at once and prints symbol rows per second. Repeats BENCH_ROUNDS times
 * with fresh report versions and prints each round and the median.
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { promisify } from 'node:util';
import { gunzip, gzipSync } from 'node:zlib';
import { createClickHouse } from '@memtrail/clickhouse';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import { createPrismaClient, createSqlPool } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import { readStackEnv } from '@memtrail/local-stack';
import { createIsolatedStores, projectData } from '@memtrail/testing';
import {
  ClickHouseWriter,
  REPORT_TABLES,
} from '../../services/ingest-worker/src/ingest/clickhouse-writer.js';
import { WorkerConfig } from '../../services/ingest-worker/src/config.js';
import { IngestReportService } from '../../services/ingest-worker/src/ingest/ingest-report.service.js';
import { StoredReports } from '../../services/ingest-worker/src/ingest/stored-reports.js';
import { symbolRows, type RowContext } from '../../services/ingest-worker/src/ingest/rows.js';
import { baseSymbols, processCpuMs, report, stackClickHousePid } from './support.js';

Object.assign(process.env, { ...readStackEnv(), ...process.env });
const reports = Number(process.env.BENCH_REPORTS ?? 24);
const symbolCount = Number(process.env.BENCH_SYMBOLS ?? 10_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const gunzipAsync = promisify(gunzip);
// The ClickHouse process to account CPU to: BENCH_CLICKHOUSE_PID (e.g. a private
// clickhouse-local started for the measurement, with CLICKHOUSE_URL pointing at it), else the
// local stack's. On a shared 2-core machine CPU time per report says more about the achievable
// rate than wall time, which depends on everyone else's load.
const clickhousePid = process.env.BENCH_CLICKHOUSE_PID ?? stackClickHousePid();
const clickhouseCpuMs = () => processCpuMs(clickhousePid);
const workerCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

async function timed<T>(into: Record<string, number[]>, step: string, run: () => Promise<T> | T) {
  const t0 = performance.now();
  const result = await run();
  (into[step] ??= []).push(performance.now() - t0);
  return result;
}

async function main(): Promise<void> {
  Logger.overrideLogger(['warn', 'error']);
  const stores = await createIsolatedStores();
  const prisma = createPrismaClient(stores.databaseUrl);
  const clickhouse = createClickHouse({
    url: stores.clickhouseUrl,
    database: stores.clickhouseDatabase,
  });
  const metrics = new ServiceMetrics('ingest-worker');
  const writer = new ClickHouseWriter(clickhouse, metrics, { CLICKHOUSE_TOPOLOGY: 'single' });
  const sql = createSqlPool(stores.databaseUrl);
  const stored = new StoredReports(sql);
  const service = new IngestReportService(stored, writer, metrics, {
    WORKER_CONCURRENCY: concurrency,
    WORKER_BATCH_LINGER_MS: Number(
      process.env.WORKER_BATCH_LINGER_MS ?? new WorkerConfig().WORKER_BATCH_LINGER_MS,
    ),
  });
  try {
    const owner = await prisma.user.create({ data: { email: 'bench@example.com' } });
    const project = await prisma.project.create({ data: projectData('bench', owner.id) });
    const target = await prisma.target.create({ data: { projectId: project.id, name: 'fw' } });
    const symbols = baseSymbols(symbolCount);
    const ids: string[] = [];
    for (let i = 0; i < reports * rounds + 5; i++) {
      const commit = await prisma.commit.create({
        data: { projectId: project.id, sha: i.toString(16).padStart(40, '0') },
      });
      const envelope: UploadEnvelope = {
        metadata: { git: { commit_hash: commit.sha }, target_name: 'fw' },
        memory_analysis: report(symbols, i),
      };
      const stored = await prisma.report.create({
        data: {
          targetId: target.id,
          commitId: commit.id,
          kind: 'full',
          payload: gzipSync(JSON.stringify(envelope), { level: 1 }) as Uint8Array<ArrayBuffer>,
          payloadSha256: 'bench',
        },
      });
      ids.push(stored.id);
    }

    // ClickHouse's CPU from the first insert until everything is merged into one part.
    const clickhouseStart = clickhouseCpuMs();
    // One report, step by step (the same calls IngestReportService makes), several times.
    const steps: Record<string, number[]> = {};
    for (const id of ids.splice(0, 5)) {
      const row = await timed(steps, 'load payload (Postgres)', () => stored.load(id));
      const parsed = await timed(steps, 'gunzip + JSON.parse', async () => {
        const text = (await gunzipAsync(row!.payload)).toString('utf8');
        return (JSON.parse(text) as UploadEnvelope).memory_analysis as MemoryReport;
      });
      const context: RowContext = {
        project_id: project.id,
        target_id: target.id,
        report_id: id,
        commit_sha: row!.commitSha,
        commit_time: row!.commitTime.getTime(),
        ingest_version: row!.version,
      };
      const rows = await timed(steps, 'symbol rows', () => symbolRows(parsed));
      await timed(steps, 'insert symbols_v1 (serialise + HTTP + engine + views)', () =>
        writer.insert('symbols_v1', `step:${id}`, [{ context, rows }]),
      );
      await timed(steps, 'mark ingested (Postgres)', () =>
        stored.markIngested([{ id, version: row!.version }]),
      );
    }
    console.log(
      `steps of one ${symbolCount}-symbol report (median of ${steps['symbol rows']!.length}):`,
    );
    for (const [step, ms] of Object.entries(steps))
      console.log(`  ${step.padEnd(56)} ${median(ms).toFixed(1).padStart(8)} ms`);

    const rates: number[] = [];
    const cpu: { worker: number[]; clickhouse: number[] } = { worker: [], clickhouse: [] };
    const batchSizes: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // New reports each round, as uploads of new commits are.
      const queue = ids.splice(0, reports);
      const t0 = performance.now();
      const [worker0, clickhouse0] = [workerCpuMs(), clickhouseCpuMs()];
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let id = queue.shift(); id; id = queue.shift()) {
            const outcome = await service.ingest({ reportId: id });
            if (outcome.status !== 'ingested') throw new Error(`report ${id}: ${outcome.status}`);
            batchSizes.push(outcome.batchSize);
          }
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      rates.push((reports * symbolCount) / seconds);
      cpu.worker.push((workerCpuMs() - worker0) / reports);
      cpu.clickhouse.push((clickhouseCpuMs() - clickhouse0) / reports);
      console.log(
        `round ${round + 1}: ${reports} reports in ${seconds.toFixed(2)} s = ` +
          `${Math.round(rates.at(-1)!)} symbol rows/s; CPU per report: worker ` +
          `${cpu.worker.at(-1)!.toFixed(0)} ms, ClickHouse ${cpu.clickhouse.at(-1)!.toFixed(0)} ms`,
      );
    }
    const counted = await clickhouse.query({
      query: 'SELECT count() AS n, uniqExact(report_id, symbol_index) AS u FROM symbols_v1',
      format: 'JSONEachRow',
    });
    const { n, u } = (await counted.json<{ n: string; u: string }>())[0]!;
    const storedReports = reports * rounds + 5;
    const expected = storedReports * symbolCount;
    if (Number(n) !== expected || Number(u) !== expected)
      throw new Error(`symbols_v1 holds ${n} rows (${u} distinct), expected ${expected}`);
    // Parts written by the rounds are merged later, at a cost the rounds only partly show:
    // merge every table to one part and count that too, per report stored.
    for (const table of REPORT_TABLES) {
      await clickhouse.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
    }
    const fullyMerged = (clickhouseCpuMs() - clickhouseStart) / storedReports;
    console.log(
      `ClickHouse CPU per report, stored and merged to one part: ${fullyMerged.toFixed(0)} ms`,
    );
    console.log(
      JSON.stringify({
        date: new Date().toISOString(),
        reports,
        symbols_per_report: symbolCount,
        concurrency,
        // Per report: how many reports its ClickHouse inserts held.
        batch_size_median: median(batchSizes),
        rows_per_second_median: Math.round(median(rates)),
        cpu_ms_per_report_median: {
          worker: Math.round(median(cpu.worker)),
          clickhouse: Math.round(median(cpu.clickhouse)),
        },
        clickhouse_cpu_ms_per_report_fully_merged: Math.round(fullyMerged),
      }),
    );
  } finally {
    await clickhouse.close();
    await prisma.$disconnect();
    await sql.end();
    await stores.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
