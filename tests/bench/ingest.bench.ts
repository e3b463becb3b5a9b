/**
 * `npm run bench:ingest`: upload throughput and ingestion rate against the running stack
 * (`npm run up`). 32 concurrent uploaders each send a series of 10k-symbol reports, as CI
 * runners would (one commit after another); the script measures each upload's
 * acknowledgement time, then how fast the worker gets every symbol row into ClickHouse. It
 * starts once ClickHouse has finished merging what earlier runs wrote.
 *
 * Environment: GATEWAY_URL (default http://127.0.0.1:5000), DATABASE_URL (default: the local
 * stack's), BENCH_UPLOADERS (32), BENCH_UPLOADS_EACH (15), BENCH_SYMBOLS (10000), BENCH_PACE_MS
 * (0: each uploader sends its next report as soon as the last is acknowledged, which measures
 * saturation; a pace such as 2000 waits that long, ±50 %, between a runner's uploads, as CI
 * runners that build between uploads do), BENCH_SEPARATE_PHASES (1: the queue is paused while
 * uploading and resumed after the last acknowledgement, so on a small machine the acknowledgement
 * times are not those of a gateway fighting the worker for the same cores; 0: both at once),
 * BENCH_ENCODING (blocks: the block form, gzip, as our CLI sends; gzip: the JSON envelope, gzip;
 * identity: plain JSON, as the MemBrowse CLI sends), BENCH_FIRST_TIMED (0: each runner's first
 * report, which creates its target and stores every block of it, is uploaded before the timed
 * phase, four at a time, and its acknowledgement reported apart as `first_report_ack`; the timed
 * phase then is what a CI fleet sends day to day, child commits of existing targets. 1: timed
 * with the rest).
 */
import { performance } from 'node:perf_hooks';
import { cpus, totalmem } from 'node:os';
import { createPrismaClient } from '@memtrail/db';
import { createRedisConnection, createReportsQueue } from '@memtrail/queue';
import { metricsPort, readStackEnv, stackPorts } from '@memtrail/local-stack';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  baseSymbols,
  benchProject,
  type BodyEncoding,
  meanPhaseMs,
  percentile,
  postUpload,
  processCpuMs,
  report,
  serviceCpuSeconds,
  stackPid,
  threadCpuMs,
  threadSplit,
  uploadBody,
  uploadPhaseTotals,
  waitForMergesToSettle,
} from './support.js';

const env = { ...readStackEnv(), ...process.env };
const gateway = env.GATEWAY_URL ?? 'http://127.0.0.1:5000';
const uploaders = Number(env.BENCH_UPLOADERS ?? 32);
const uploadsEach = Number(env.BENCH_UPLOADS_EACH ?? 15);
const symbolCount = Number(env.BENCH_SYMBOLS ?? 10_000);
const paceMs = Number(env.BENCH_PACE_MS ?? 0);
const separatePhases = (env.BENCH_SEPARATE_PHASES ?? '1') !== '0';
const encoding = (env.BENCH_ENCODING ?? 'blocks') as BodyEncoding;
const firstTimed = (env.BENCH_FIRST_TIMED ?? '0') !== '0';
if (!['gzip', 'identity', 'blocks'].includes(encoding))
  throw new Error(`BENCH_ENCODING must be gzip, identity or blocks, not ${encoding}`);
const metricsUrl = (service: 'gateway' | 'ingest-worker') =>
  `http://127.0.0.1:${metricsPort(service, stackPorts.gateway)}/metrics`;
if (!env.DATABASE_URL)
  throw new Error('DATABASE_URL is not set and no local stack env was found (run npm run up)');

// One run's commits share a prefix, so a child names its parent's sha.
const runStamp = Date.now().toString(16);
const sha = (uploader: number, step: number) =>
  `${runStamp}${uploader.toString(16).padStart(4, '0')}${step.toString(16).padStart(4, '0')}`.padEnd(
    40,
    '0',
  );

async function main(): Promise<void> {
  const prisma = createPrismaClient(env.DATABASE_URL!);
  const stamp = Date.now();
  const { projectId, apiKey } = await benchProject(prisma, 'bench-ingest');

  console.log(`preparing ${uploaders * uploadsEach} uploads of ${symbolCount} symbols…`);
  const bodies: Buffer[][] = [];
  for (let u = 0; u < uploaders; u++) {
    const symbols = baseSymbols(symbolCount);
    const series: Buffer[] = [];
    for (let step = 0; step < uploadsEach; step++) {
      const envelope: UploadEnvelope = {
        metadata: {
          git: {
            commit_hash: sha(u, step),
            base_commit_hash: step === 0 ? null : sha(u, step - 1),
            branch_name: 'main',
            commit_timestamp: new Date(stamp + step * 60_000).toISOString(),
          },
          target_name: `target-${u}`,
          analysis_version: 'bench',
        },
        memory_analysis: report(symbols, step),
      };
      series.push(uploadBody(envelope, encoding));
    }
    bodies.push(series);
  }

  // Targets are created apart unless asked otherwise: a first report stores all its blocks,
  // which a fleet's targets do once in their life, not on every commit.
  const firstLatencies: number[] = [];
  if (!firstTimed) {
    console.log(`uploading the ${uploaders} targets' first reports…`);
    const firsts = bodies.map((series) => series.shift()!);
    for (let i = 0; i < firsts.length; i += 4) {
      await Promise.all(
        firsts.slice(i, i + 4).map(async (body) => {
          const t0 = performance.now();
          const response = await postUpload(gateway, apiKey, body, encoding);
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`upload failed: ${response.status}`);
          firstLatencies.push(performance.now() - t0);
        }),
      );
    }
    await waitIngested(prisma, projectId, firsts.length);
  }
  const redis = createRedisConnection(env.REDIS_URL ?? 'redis://127.0.0.1:63790');
  const queue = createReportsQueue({ connection: redis, prefix: env.QUEUE_PREFIX ?? 'memtrail' });
  if (separatePhases) await queue.pause();

  console.log('waiting for ClickHouse merges of earlier runs to finish…');
  await waitForMergesToSettle(env.CLICKHOUSE_URL ?? 'http://127.0.0.1:18123');
  // When each upload started (s into the run) and how long it took: whether the slowest come
  // together.
  const timed: { at: number; ms: number }[] = [];
  const gatewayCpu0 = await serviceCpuSeconds(metricsUrl('gateway'));
  const gatewayPid = stackPid('gateway');
  const gatewayThreads0 = threadCpuMs(gatewayPid);
  const clickhousePid = stackPid('clickhouse');
  const phases0 = await uploadPhaseTotals(metricsUrl('gateway'));
  const workerCpu0 = await serviceCpuSeconds(metricsUrl('ingest-worker'));
  // ClickHouse's CPU is counted while it ingests: from the start, or from the queue's resume.
  let clickhouseCpu0 = processCpuMs(clickhousePid);
  const started = performance.now();
  const startedAt = new Date();
  await Promise.all(
    bodies.map(async (series) => {
      // Paced runners do not all start in the same millisecond.
      if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs * Math.random()));
      for (const body of series) {
        const t0 = performance.now();
        const response = await postUpload(gateway, apiKey, body, encoding);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`upload failed: ${response.status}`);
        timed.push({ at: (t0 - started) / 1000, ms: performance.now() - t0 });
        if (paceMs > 0)
          await new Promise((resolve) => setTimeout(resolve, paceMs * (0.5 + Math.random())));
      }
    }),
  );
  const uploadSeconds = (performance.now() - started) / 1000;
  const gatewayCpu = (await serviceCpuSeconds(metricsUrl('gateway'))) - gatewayCpu0;
  const gatewayThreads1 = threadCpuMs(gatewayPid);
  const phases = meanPhaseMs(phases0, await uploadPhaseTotals(metricsUrl('gateway')));
  const ingestStartedAt = Date.now();
  if (separatePhases) {
    clickhouseCpu0 = processCpuMs(clickhousePid);
    await queue.resume();
  }

  const total = bodies.reduce((n, series) => n + series.length, 0);
  const gatewayThreads = gatewayPid
    ? threadSplit(gatewayPid, gatewayThreads0, gatewayThreads1, total)
    : null;
  const where = { target: { projectId } };
  await waitIngested(prisma, projectId, uploaders * uploadsEach);
  const endToEnd = (Date.now() - startedAt.getTime()) / 1000;
  const workerCpu = (await serviceCpuSeconds(metricsUrl('ingest-worker'))) - workerCpu0;
  const ingestSeconds = (Date.now() - ingestStartedAt) / 1000;
  const clickhouseCpu = processCpuMs(clickhousePid) - clickhouseCpu0;
  await queue.close();
  redis.disconnect();
  const window = await prisma.report.aggregate({
    where: { ...where, createdAt: { gte: startedAt } },
    _min: { ingestedAt: true },
    _max: { ingestedAt: true },
  });
  const rows = total * symbolCount;
  // How long after its upload each report became readable in full (symbols included); only
  // meaningful while the worker ingests during the uploads.
  const lags = separatePhases
    ? []
    : (
        await prisma.report.findMany({
          where: { ...where, createdAt: { gte: startedAt } },
          select: { createdAt: true, ingestedAt: true },
        })
      )
        .map((r) => r.ingestedAt!.getTime() - r.createdAt.getTime())
        .sort((a, b) => a - b);

  const latencies = timed.map((t) => t.ms).sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    JSON.stringify(
      {
        machine: {
          cpus: cpus().length,
          cpu: cpus()[0]?.model,
          memory_gib: +(totalmem() / 2 ** 30).toFixed(1),
          node: process.version,
        },
        date: new Date().toISOString(),
        uploaders,
        pace_ms: paceMs,
        separate_phases: separatePhases,
        encoding,
        uploads: total,
        symbols_per_report: symbolCount,
        ack: {
          p50: ms(percentile(latencies, 50)),
          p95: ms(percentile(latencies, 95)),
          p99: ms(percentile(latencies, 99)),
          max: ms(latencies.at(-1)!),
          slowest: timed
            .sort((a, b) => b.ms - a.ms)
            .slice(0, Math.ceil(timed.length / 100))
            .map((t) => `${ms(t.ms)} at ${t.at.toFixed(1)} s`),
        },
        // Where the gateway spent each acknowledgement, mean per step (memtrail_upload_phase_seconds).
        ack_mean_ms_by_step: phases,
        first_report_ack: firstLatencies.length
          ? {
              p50: ms(
                percentile(
                  firstLatencies.sort((a, b) => a - b),
                  50,
                ),
              ),
              max: ms(firstLatencies.at(-1)!),
            }
          : null,
        uploads_per_second: +(total / uploadSeconds).toFixed(1),
        // All of the gateway's threads; the closed-loop ceiling is about cores / this.
        gateway_cpu_ms_per_upload: +((gatewayCpu * 1000) / total).toFixed(1),
        // The same by thread, when the gateway is the local stack's (null otherwise).
        gateway_thread_cpu_ms_per_upload: gatewayThreads,
        worker_cpu_ms_per_report: +((workerCpu * 1000) / total).toFixed(1),
        // Merges included; NaN (null) with an external ClickHouse.
        clickhouse_cpu_ms_per_report: +(clickhouseCpu / total).toFixed(1),
        symbol_rows: rows,
        end_to_end_seconds: +endToEnd.toFixed(1),
        rows_per_second_end_to_end: Math.round(rows / endToEnd),
        ingest_seconds_after_uploads: +ingestSeconds.toFixed(1),
        ingest_lag: lags.length
          ? {
              p50: ms(percentile(lags, 50)),
              p95: ms(percentile(lags, 95)),
              max: ms(lags.at(-1)!),
            }
          : null,
        rows_per_second_ingest_window: Math.round(
          rows /
            ((window._max.ingestedAt!.getTime() - window._min.ingestedAt!.getTime()) / 1000 || 1),
        ),
      },
      null,
      2,
    ),
  );
  await prisma.$disconnect();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/** Waits until `count` reports of the project are ingested; throws when one failed. */
async function waitIngested(
  prisma: ReturnType<typeof createPrismaClient>,
  projectId: string,
  count: number,
): Promise<void> {
  const where = { target: { projectId } };
  for (;;) {
    const failed = await prisma.report.count({ where: { ...where, status: 'failed' } });
    if (failed > 0) throw new Error(`${failed} report(s) failed to ingest`);
    const ingested = await prisma.report.count({ where: { ...where, status: 'ingested' } });
    if (ingested >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
