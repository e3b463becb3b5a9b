/**
 * `npm run bench:storage`: what one commit costs the stores, against the running stack
 * (`npm run up`). For each firmware size it uploads a first build, then child commits one at a
 * time through `POST /upload` — each waits until the worker has ingested it — and measures, per
 * child — once the worker has copied its symbol blocks to ClickHouse, where it does so in
 * batches — the ClickHouse rows written (every table and projection of the database, from
 * `system.parts`), the Postgres bytes added (every table, index and TOAST of the schema), the
 * gzip upload's size, and the CPU the worker, ClickHouse (merges included, once they settle)
 * and the gateway spent, from the processes' own accounting rather than wall time. Nothing here
 * depends on how the stores lay reports out, so the same run measures any design.
 *
 * Two kinds of child commit: `one-file` grows two functions of one source file (with the
 * address shift a real link gives every later symbol of `.text`), `scattered` changes seven
 * symbols across the firmware (3 grow, 2 shrink, 1 added, 1 removed).
 *
 * Each process's CPU while idle (timers, queue polling, ClickHouse's own background threads) is
 * measured over BENCH_IDLE_MS before the children and again after, and taken off; ClickHouse
 * must be a server of the stack's own (its CPU counts everything it does). On a busy machine the
 * idle rates vary: take several runs, and more children for small per-commit costs.
 *
 * Environment: GATEWAY_URL (default http://127.0.0.1:$PORT), DATABASE_URL / CLICKHOUSE_URL /
 * CLICKHOUSE_DATABASE (default: the local stack's), BENCH_SIZES (10000,40000), BENCH_CHILDREN
 * (20), BENCH_IDLE_MS (10000), BENCH_ENCODING (blocks, as our CLI sends; gzip: the JSON
 * envelope, as the MemBrowse CLI sends it compressed), BENCH_CLICKHOUSE_PID (default: the local
 * stack's embedded ClickHouse).
 */
import { gzipSync } from 'node:zlib';
import { cpus } from 'node:os';
import pg from 'pg';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { metricsPort, readStackEnv, stackPorts } from '@memtrail/local-stack';
import { seededRandom } from '@memtrail/testing/random';
import {
  envelope,
  evolve,
  growOneFile,
  initialFirmware,
  toReport,
  TYPICAL_CHURN,
  type CommitSpec,
  type SyntheticSymbol,
} from '../../services/query/bench/synthetic-firmware.js';
import {
  benchProject,
  postUpload,
  uploadBody,
  type BodyEncoding,
  processCpuMs,
  serviceCpuSeconds,
  stackPid,
  waitForMergesToSettle,
} from './support.js';

const env = { ...readStackEnv(), ...process.env };
const gateway = env.GATEWAY_URL ?? `http://127.0.0.1:${stackPorts.gateway}`;
const sizes = (env.BENCH_SIZES ?? '10000,40000').split(',').map(Number);
const children = Number(env.BENCH_CHILDREN ?? 20);
const idleMs = Number(env.BENCH_IDLE_MS ?? 10_000);
const encoding = (env.BENCH_ENCODING ?? 'blocks') as BodyEncoding;
const clickhousePid = env.BENCH_CLICKHOUSE_PID ?? stackPid('clickhouse');
const clickhouseUrl = env.CLICKHOUSE_URL!;
const clickhouseDatabase = env.CLICKHOUSE_DATABASE ?? 'memtrail';
const metricsUrl = (service: 'gateway' | 'ingest-worker') =>
  `http://127.0.0.1:${metricsPort(service, stackPorts.gateway)}/metrics`;

async function clickhouse(query: string): Promise<string> {
  const url = new URL(clickhouseUrl);
  url.searchParams.set('query', query);
  url.searchParams.set('param_db', clickhouseDatabase);
  const response = await fetch(url, { method: 'POST' });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse answered ${response.status}: ${text}`);
  return text.trim();
}

/** Every row of every table and projection of the database (active parts). */
async function clickhouseRows(): Promise<number> {
  const parts = await clickhouse(
    'SELECT sum(rows) FROM system.parts WHERE database = {db:String} AND active',
  );
  const projections = await clickhouse(
    'SELECT sum(rows) FROM system.projection_parts WHERE database = {db:String} AND active',
  );
  return Number(parts) + Number(projections);
}

/** Bytes on disk of the database's tables (compressed, projections included). */
async function clickhouseBytes(): Promise<number> {
  return Number(
    await clickhouse(
      'SELECT sum(bytes_on_disk) FROM system.parts WHERE database = {db:String} AND active',
    ),
  );
}

/** Every table, index and TOAST table of the public schema. */
async function postgresBytes(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace`,
  );
  return Number(rows[0]!.bytes);
}

interface Snapshot {
  rows: number;
  clickhouseBytes: number;
  postgresBytes: number;
  workerMs: number;
  clickhouseMs: number;
  gatewayMs: number;
}

/**
 * Waits until the worker has copied every symbol block to ClickHouse (designs that copy
 * blocks in batches, after WORKER_COPY_AGE_MS at the latest); nothing to wait for otherwise.
 */
async function copiesDone(db: pg.Client): Promise<void> {
  const { rows } = await db.query<{ batched: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns
       WHERE table_name = 'symbol_blocks' AND column_name = 'in_clickhouse') AS batched`,
  );
  if (!rows[0]!.batched) return;
  for (const deadline = Date.now() + 600_000; Date.now() < deadline;) {
    const { rows: waiting } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM symbol_blocks WHERE NOT in_clickhouse AND copy_error IS NULL',
    );
    if (waiting[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('symbol blocks were not copied to ClickHouse within 10 minutes');
}

async function snapshot(db: pg.Client): Promise<Snapshot> {
  await copiesDone(db);
  await waitForMergesToSettle(clickhouseUrl);
  return {
    rows: await clickhouseRows(),
    clickhouseBytes: await clickhouseBytes(),
    postgresBytes: await postgresBytes(db),
    workerMs: (await serviceCpuSeconds(metricsUrl('ingest-worker'))) * 1000,
    clickhouseMs: processCpuMs(clickhousePid),
    gatewayMs: (await serviceCpuSeconds(metricsUrl('gateway'))) * 1000,
  };
}

async function ingested(prisma: PrismaClient, reportId: string): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const report = await prisma.report.findUnique({ where: { id: reportId } });
    if (report?.status === 'ingested') return;
    if (report?.status === 'failed')
      throw new Error(`report ${reportId} failed: ${report.lastError}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`report ${reportId} was not ingested within 2 minutes`);
}

interface Row {
  size: number;
  kind: string;
  rowsPerCommit: number;
  clickhouseBytesPerCommit: number;
  postgresBytesPerCommit: number;
  uploadBytes: number;
  workerMs: number;
  clickhouseMs: number;
  gatewayMs: number;
}

async function measure(
  prisma: PrismaClient,
  db: pg.Client,
  symbolCount: number,
  kind: 'one-file' | 'scattered',
): Promise<Row> {
  const { apiKey } = await benchProject(prisma, `bench-storage-${symbolCount}-${kind}`);
  const rnd = seededRandom(symbolCount + kind.length);
  let nextId = symbolCount;
  let firmware: SyntheticSymbol[] = initialFirmware(symbolCount, 7);
  const stamp = Date.now();
  const spec = (i: number): CommitSpec => ({
    sha: `${stamp.toString(16)}${i.toString(16).padStart(6, '0')}`.padEnd(40, '0'),
    parent:
      i === 0
        ? null
        : `${stamp.toString(16)}${(i - 1).toString(16).padStart(6, '0')}`.padEnd(40, '0'),
    branch: 'main',
    target: 'board',
    time: new Date(stamp + i * 60_000),
    message: `commit ${i}`,
    kind: 'full',
  });
  /** Sends commit i; answers the size of its JSON envelope, gzip (what stored bytes compare with). */
  const upload = async (i: number) => {
    const sent = envelope(spec(i), toReport(firmware));
    const json = gzipSync(JSON.stringify(sent), { level: 6 });
    const body = encoding === 'blocks' ? uploadBody(sent, 'blocks') : json;
    const response = await postUpload(gateway, apiKey, body, encoding);
    const text = await response.text();
    if (!response.ok) throw new Error(`upload ${i} failed: ${response.status} ${text}`);
    await ingested(prisma, (JSON.parse(text) as { data: { report_id: string } }).data.report_id);
    return json.length;
  };
  await upload(0);
  // What the processes spend doing nothing (timers, polling, the store's own background work),
  // measured over an idle window before the children and another after, and taken off.
  const idleWindow = async () => {
    const start = await snapshot(db);
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const end = await snapshot(db);
    return { start, end, span: performance.now() - t0 };
  };
  const idleBefore = await idleWindow();
  const before = await snapshot(db);
  const t0 = performance.now();
  let uploadBytes = 0;
  for (let i = 1; i <= children; i++) {
    firmware =
      kind === 'one-file'
        ? growOneFile(firmware, rnd)
        : evolve(firmware, TYPICAL_CHURN, rnd, () => nextId++);
    uploadBytes += await upload(i);
  }
  const after = await snapshot(db);
  const span = performance.now() - t0;
  const idleAfter = await idleWindow();
  const idle = (key: 'workerMs' | 'clickhouseMs' | 'gatewayMs') =>
    (idleBefore.end[key] - idleBefore.start[key] + idleAfter.end[key] - idleAfter.start[key]) /
    (idleBefore.span + idleAfter.span);
  const per = (a: number, b: number) => (b - a) / children;
  const busy = (key: 'workerMs' | 'clickhouseMs' | 'gatewayMs') =>
    (after[key] - before[key] - idle(key) * span) / children;
  return {
    size: symbolCount,
    kind,
    rowsPerCommit: per(before.rows, after.rows),
    clickhouseBytesPerCommit: per(before.clickhouseBytes, after.clickhouseBytes),
    postgresBytesPerCommit: per(before.postgresBytes, after.postgresBytes),
    uploadBytes: uploadBytes / children,
    workerMs: busy('workerMs'),
    clickhouseMs: busy('clickhouseMs'),
    gatewayMs: busy('gatewayMs'),
  };
}

async function main(): Promise<void> {
  if (!env.DATABASE_URL || !clickhouseUrl)
    throw new Error('DATABASE_URL and CLICKHOUSE_URL are not set and no local stack env was found');
  const prisma = createPrismaClient(env.DATABASE_URL);
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  console.log(
    `bench:storage against ${gateway}, ${children} child commits per row, ${cpus().length} CPUs ` +
      `(${cpus()[0]?.model ?? 'unknown'}), ${new Date().toISOString()}`,
  );
  const rows: Row[] = [];
  try {
    for (const size of sizes)
      for (const kind of ['one-file', 'scattered'] as const)
        rows.push(await measure(prisma, db, size, kind));
  } finally {
    await db.end();
    await prisma.$disconnect();
  }
  const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)} %`;
  console.log(
    '| symbols | commit | ClickHouse rows | of symbols | ClickHouse bytes | Postgres bytes | of gzip upload | worker CPU | ClickHouse CPU | worker + ClickHouse | gateway CPU |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.size} | ${r.kind} | ${r.rowsPerCommit.toFixed(0)} | ${pct(r.rowsPerCommit, r.size)} | ` +
        `${(r.clickhouseBytesPerCommit / 1024).toFixed(1)} KiB | ${(r.postgresBytesPerCommit / 1024).toFixed(1)} KiB | ` +
        `${pct(r.postgresBytesPerCommit, r.uploadBytes)} of ${(r.uploadBytes / 1024).toFixed(0)} KiB | ` +
        `${r.workerMs.toFixed(1)} ms | ${Number.isNaN(r.clickhouseMs) ? '—' : `${r.clickhouseMs.toFixed(1)} ms`} | ` +
        `${(r.workerMs + r.clickhouseMs).toFixed(1)} ms | ${r.gatewayMs.toFixed(1)} ms |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
