/**
 * `npm run bench:merges`: what ClickHouse spends on a growing symbol table, merges included,
 * with the schema as migrated and as it was up to an earlier migration (VARIANTS). Each
 * run migrates a fresh database on the local stack's embedded ClickHouse (or CLICKHOUSE_URL, with
 * BENCH_CLICKHOUSE_PID naming its process), writes
 * BENCH_BATCHES ingest batches through the worker's ClickHouseWriter (BENCH_BATCH_REPORTS
 * reports of BENCH_SYMBOLS symbols each, as a busy worker writes them), waits until no merge
 * runs and the part count stays put, and reads the ClickHouse process's CPU per thread: merge
 * threads apart from the rest. Short benchmarks that stop after the inserts miss most of the
 * merges; this one waits for them. Variants alternate, BENCH_ROUNDS times each.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createClickHouse, migrate, type ClickHouseClient } from '@memtrail/clickhouse';
import { readStackEnv } from '@memtrail/local-stack';
import { ServiceMetrics } from '@memtrail/metrics';
import { ClickHouseWriter } from '../../services/ingest-worker/src/ingest/clickhouse-writer.js';
import { symbolRows, type RowContext } from '../../services/ingest-worker/src/ingest/rows.js';
import { baseSymbols, report, stackClickHousePid, statCpuMs } from './support.js';

const env = { ...readStackEnv(), ...process.env };
const clickhouseUrl = env.CLICKHOUSE_URL ?? 'http://127.0.0.1:18123';
const batches = Number(env.BENCH_BATCHES ?? 200);
const batchReports = Number(env.BENCH_BATCH_REPORTS ?? 5);
const symbolCount = Number(env.BENCH_SYMBOLS ?? 10_000);
const rounds = Number(env.BENCH_ROUNDS ?? 2);

/** Each variant's schema: every migration, or those up to a version. */
const VARIANTS = {
  migrated: undefined,
  'up to migration 0009': 9,
} as const;

/** CPU milliseconds per thread name (ClickHouse names its merge threads MergeMutate). */
function threadCpuMs(pid: string): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // The thread ended between listing and reading; its CPU is lost either way.
    }
  }
  return byName;
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

async function count(clickhouse: ClickHouseClient, sql: string): Promise<number> {
  const result = await clickhouse.query({ query: sql, format: 'JSONEachRow' });
  return Number(Object.values((await result.json<Record<string, string>>())[0]!)[0]);
}

/** Until no merge of `database` runs and its part count has not moved for 4 s. */
async function settle(clickhouse: ClickHouseClient, database: string): Promise<number> {
  let stable = 0;
  let last = -1;
  while (stable < 4) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const merging = await count(
      clickhouse,
      `SELECT count() FROM system.merges WHERE database = '${database}'`,
    );
    const parts = await count(
      clickhouse,
      `SELECT count() FROM system.parts WHERE database = '${database}' AND active`,
    );
    stable = merging === 0 && parts === last ? stable + 1 : 0;
    last = parts;
  }
  return last;
}

async function run(variant: keyof typeof VARIANTS, pid: string) {
  const database = `bench_merges_${randomUUID().slice(0, 8)}`;
  await migrate({ url: clickhouseUrl, database, upTo: VARIANTS[variant] });
  const clickhouse = createClickHouse({ url: clickhouseUrl, database });
  try {
    const writer = new ClickHouseWriter(clickhouse, new ServiceMetrics('bench'), {
      CLICKHOUSE_TOPOLOGY: 'single',
    });
    const symbols = baseSymbols(symbolCount);
    const builds = Array.from({ length: batchReports }, (_, i) => symbolRows(report(symbols, i)));
    const projectId = randomUUID();
    const targetId = randomUUID();
    const cpu0 = threadCpuMs(pid);
    const t0 = performance.now();
    for (let batch = 0; batch < batches; batch++) {
      const reports = builds.map((rows, i) => {
        const context: RowContext = {
          project_id: projectId,
          target_id: targetId,
          report_id: randomUUID(),
          commit_sha: (batch * batchReports + i).toString(16).padStart(40, '0'),
          commit_time: Date.UTC(2026, 0, 1) + (batch * batchReports + i) * 60_000,
          ingest_version: 1,
        };
        return { context, rows };
      });
      await writer.insert('symbols_v1', `bench:${batch}`, reports);
    }
    const insertSeconds = (performance.now() - t0) / 1000;
    const parts = await settle(clickhouse, database);
    const cpu1 = threadCpuMs(pid);
    // The settling wait adds a few seconds of idle background work; small next to the runs.
    const used = new Map([...cpu1].map(([name, ms]) => [name, ms - (cpu0.get(name) ?? 0)]));
    const per10k = (ms: number) =>
      +((ms * 10_000) / (batches * batchReports * symbolCount)).toFixed(1);
    return {
      variant,
      rows: batches * batchReports * symbolCount,
      insert_seconds: +insertSeconds.toFixed(1),
      clickhouse_cpu_ms_per_10k_rows: per10k(sum(used)),
      merge_threads_cpu_ms_per_10k_rows: per10k(used.get('MergeMutate') ?? 0),
      active_parts_after: parts,
    };
  } finally {
    await clickhouse.command({ query: `DROP DATABASE IF EXISTS ${database} SYNC` });
    await clickhouse.close();
  }
}

async function main(): Promise<void> {
  const pid = env.BENCH_CLICKHOUSE_PID ?? stackClickHousePid();
  if (!pid) {
    throw new Error(
      'bench:merges reads the ClickHouse process: run npm run up, or set BENCH_CLICKHOUSE_PID',
    );
  }
  const results = [];
  for (let round = 0; round < rounds; round++) {
    for (const variant of Object.keys(VARIANTS) as (keyof typeof VARIANTS)[]) {
      const result = await run(variant, pid);
      console.log(JSON.stringify(result));
      results.push(result);
    }
  }
  console.log(JSON.stringify({ date: new Date().toISOString(), batches, batchReports, results }));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
