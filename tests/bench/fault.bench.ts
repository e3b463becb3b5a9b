/**
 * `npm run bench:fault`: uploads under load while the ingest worker is killed and ClickHouse is
 * stopped and restarted, on the running local stack (`npm run up`). Bounded in time: uploads
 * run for a fixed schedule, then the script waits at most BENCH_RECOVERY_S for every
 * acknowledged report to be ingested, and checks that each holds its symbol rows exactly once.
 *
 * Environment: BENCH_UPLOADERS (8), BENCH_UPLOADS_EACH (20), BENCH_SYMBOLS (2000),
 * BENCH_PACE_MS (1500), BENCH_RECOVERY_S (300).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { createClickHouse } from '@memtrail/clickhouse';
import type { UploadEnvelope, UploadSuccessResponse } from '@memtrail/contracts';
import { createPrismaClient } from '@memtrail/db';
import { readStackEnv } from '@memtrail/local-stack';
import { baseSymbols, benchProject, percentile, postUpload, report } from './support.js';

const env = { ...readStackEnv(), ...process.env };
const gateway = env.GATEWAY_URL ?? 'http://127.0.0.1:5000';
const uploaders = Number(env.BENCH_UPLOADERS ?? 8);
const uploadsEach = Number(env.BENCH_UPLOADS_EACH ?? 20);
const symbolCount = Number(env.BENCH_SYMBOLS ?? 2000);
const paceMs = Number(env.BENCH_PACE_MS ?? 1500);
const recoveryS = Number(env.BENCH_RECOVERY_S ?? 300);
// Run from the repository root (npm scripts are), where the local stack keeps .data/.
const repoRoot = process.cwd();
if (!env.DATABASE_URL || !env.CLICKHOUSE_URL)
  throw new Error('no local stack env was found: run npm run up');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) =>
  console.log(`${new Date().toISOString().slice(11, 23)} ${message}`);

/** The local stack's own way to kill and bring a process back. */
function kill(name: 'ingest-worker' | 'clickhouse'): void {
  const pid = Number(readFileSync(join(repoRoot, '.data', 'run', `${name}.pid`), 'utf8'));
  process.kill(pid, 'SIGKILL');
  log(`killed ${name} (pid ${pid})`);
}

/** Asynchronous, so the uploaders' clocks and requests go on while the stack comes back. */
async function stackUp(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(repoRoot, 'deploy/local/dist/cli.js'), 'up']);
  log('npm run up brought the stack back');
}

async function main(): Promise<void> {
  const prisma = createPrismaClient(env.DATABASE_URL!);
  const clickhouse = createClickHouse({
    url: env.CLICKHOUSE_URL!,
    database: env.CLICKHOUSE_DATABASE ?? 'memtrail',
  });
  const { apiKey } = await benchProject(prisma, 'bench-fault');
  const stamp = Date.now().toString(16);

  const latencies: number[] = [];
  const failures: string[] = [];
  const acknowledged: { reportId: string; symbols: number }[] = [];
  const uploading = Promise.all(
    Array.from({ length: uploaders }, async (_, u) => {
      // Every body is compressed before the first upload, so that no runner's JSON and gzip
      // work delays another's acknowledgement as the script measures it.
      const symbols = baseSymbols(symbolCount);
      const sha = (s: number) =>
        `${stamp}${u.toString(16).padStart(4, '0')}${s.toString(16).padStart(4, '0')}`.padEnd(
          40,
          '0',
        );
      const bodies = Array.from({ length: uploadsEach }, (_, step) => {
        const envelope: UploadEnvelope = {
          metadata: {
            git: {
              commit_hash: sha(step),
              base_commit_hash: step === 0 ? null : sha(step - 1),
              branch_name: 'main',
            },
            target_name: `fault-${u}`,
          },
          memory_analysis: report(symbols, step),
        };
        return gzipSync(JSON.stringify(envelope), { level: 1 });
      });
      await sleep(Math.random() * paceMs);
      for (const body of bodies) {
        const t0 = performance.now();
        const response = await postUpload(gateway, apiKey, body);
        latencies.push(performance.now() - t0);
        if (!response.ok) failures.push(`${response.status} ${await response.text()}`);
        else
          acknowledged.push({
            reportId: ((await response.json()) as UploadSuccessResponse).data.report_id,
            symbols: symbolCount,
          });
        await sleep(paceMs * (0.5 + Math.random()));
      }
    }),
  );

  // The faults, while uploads go on: the worker dies mid-stream, then ClickHouse goes away.
  const started = Date.now();
  await sleep(5_000);
  kill('ingest-worker');
  await sleep(5_000);
  await stackUp();
  await sleep(5_000);
  kill('clickhouse');
  await sleep(8_000);
  await stackUp();
  await uploading;
  const uploadsDone = Date.now();
  log(`${acknowledged.length} uploads acknowledged, ${failures.length} refused`);

  const ids = acknowledged.map((a) => a.reportId);
  const deadline = Date.now() + recoveryS * 1000;
  let pending = ids.length;
  while (pending > 0 && Date.now() < deadline) {
    await sleep(1000);
    pending = await prisma.report.count({
      where: { id: { in: ids }, NOT: { status: 'ingested' } },
    });
  }
  const recovered = Date.now();

  // Exactly once: every acknowledged report has each of its symbol rows once, at its version.
  const rows = await clickhouse.query({
    query: `SELECT report_id, count() AS n, uniqExact(symbol_index) AS distinct
            FROM symbols_v1 WHERE report_id IN {ids:Array(String)} AND ingest_version = 1
            GROUP BY report_id`,
    query_params: { ids },
    format: 'JSONEachRow',
  });
  const counts = new Map(
    (await rows.json<{ report_id: string; n: number; distinct: number }>()).map((r) => [
      r.report_id,
      r,
    ]),
  );
  const wrong = acknowledged.filter((a) => {
    const c = counts.get(a.reportId);
    return !c || Number(c.n) !== a.symbols || Number(c.distinct) !== a.symbols;
  });
  // The materialized views' tables count each symbol once too (a retried insert is not summed).
  const viewRows = await clickhouse.query({
    query: `SELECT report_id, sum(symbols) AS n FROM file_sizes_v1
            WHERE report_id IN {ids:Array(String)} AND ingest_version = 1 GROUP BY report_id`,
    query_params: { ids },
    format: 'JSONEachRow',
  });
  const viewCounts = new Map(
    (await viewRows.json<{ report_id: string; n: number }>()).map((r) => [r.report_id, r.n]),
  );
  const wrongViews = acknowledged.filter((a) => Number(viewCounts.get(a.reportId)) !== a.symbols);
  latencies.sort((a, b) => a - b);
  const result = {
    date: new Date().toISOString(),
    uploaders,
    uploads: uploaders * uploadsEach,
    acknowledged: acknowledged.length,
    refused: failures.length,
    refusals: [...new Set(failures)].slice(0, 5),
    ack_ms: {
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(latencies.at(-1)!),
    },
    upload_phase_s: Math.round((uploadsDone - started) / 1000),
    not_ingested: pending,
    recovery_after_uploads_s: Math.round((recovered - uploadsDone) / 1000),
    reports_with_wrong_rows: wrong.length,
    reports_with_wrong_view_rows: wrongViews.length,
  };
  console.log(JSON.stringify(result, null, 2));
  await clickhouse.close();
  await prisma.$disconnect();
  if (pending > 0 || wrong.length > 0 || wrongViews.length > 0 || failures.length > 0)
    process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
