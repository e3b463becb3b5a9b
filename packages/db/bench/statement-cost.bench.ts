/**
 * `npm run bench:db`: what one statement costs the calling process in CPU, through Prisma's
 * model API, through Prisma's raw queries (`$queryRaw`, which is also how Prisma's TypedSQL runs
 * its statements) and through the plain node-postgres pool (SqlPool). The statements are those
 * of the hot paths: an upload's API key check, the worker's report lookup, a version's record
 * written (a 230 KB bytea) and an upload's new symbol blocks inserted (40 blocks of 1 KB).
 *
 * Needs DATABASE_URL naming a server where it may create and drop a `memtrail_bench_db_*`
 * database. BENCH_ROUNDS (default 400) statements per case, after 50 to warm up. CPU is this
 * process's user + system time (all threads) divided by the statements run; Postgres's own CPU
 * is not counted, since it is the same whichever way the statement is sent.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism, cpus } from 'node:os';
import pg from 'pg';
import {
  createPrismaClient,
  createSqlPool,
  migrateDeploy,
  type PrismaClient,
  type SqlPool,
} from '@memtrail/db';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const WARM_UP = 50;
const RECORD_BYTES = 230_000;
const BLOCKS = 40;
const BLOCK_BYTES = 1_000;

interface Seed {
  publicId: string;
  reportId: string;
  targetId: string;
}

interface Case {
  name: string;
  prisma: (db: PrismaClient, seed: Seed, round: number) => Promise<unknown>;
  raw: (db: PrismaClient, seed: Seed, round: number) => Promise<unknown>;
  pool: (sql: SqlPool, seed: Seed, round: number) => Promise<unknown>;
}

const KEY_SQL = `SELECT k.id::text, k.name, k.scope::text AS scope, k.project_id::text AS "projectId",
    COALESCE(k.organization_id, p.organization_id)::text AS "organizationId", k.secret_hash,
    k.revoked_at, k.expires_at, k.last_used_at, k.last_user_agent, k.last_ip
  FROM api_keys k LEFT JOIN projects p ON p.id = k.project_id WHERE k.public_id = $1`;
const REPORT_SQL = `SELECT id::text, target_id::text, kind::text, parent_sha, version, ingested_version
  FROM reports WHERE id = $1::uuid`;
const RECORD_SQL = `UPDATE report_versions SET record = $3 WHERE report_id = $1::uuid AND version = $2`;
const BLOCKS_SQL = `INSERT INTO symbol_blocks (target_id, hash, data, symbol_count)
  SELECT $1::uuid, b.hash, b.data, b.symbols
  FROM unnest($2::bytea[], $3::bytea[], $4::int[]) AS b(hash, data, symbols)
  ON CONFLICT DO NOTHING`;

const record = randomBytes(RECORD_BYTES);
/** Fresh hashes per round, so every insert writes its 40 rows. */
function blocks(round: number, variant: number) {
  const hashes = Array.from({ length: BLOCKS }, (_, i) =>
    Buffer.from(`${variant}:${round}:${i}`.padEnd(32, '.')),
  );
  const data = hashes.map(() => randomBytes(BLOCK_BYTES));
  return { hashes, data, symbols: hashes.map(() => 25) };
}

const cases: Case[] = [
  {
    name: 'API key check (join, 1 row)',
    prisma: (db, s) =>
      db.apiKey.findUnique({
        where: { publicId: s.publicId },
        include: { project: { select: { organizationId: true } } },
      }),
    raw: (db, s) => db.$queryRawUnsafe(KEY_SQL, s.publicId),
    pool: (sql, s) => sql.query(KEY_SQL, [s.publicId]),
  },
  {
    name: 'Report by primary key (1 row)',
    prisma: (db, s) => db.report.findUnique({ where: { id: s.reportId }, omit: { payload: true } }),
    raw: (db, s) => db.$queryRawUnsafe(REPORT_SQL, s.reportId),
    pool: (sql, s) => sql.query(REPORT_SQL, [s.reportId]),
  },
  {
    name: 'Record update, 230 KB bytea',
    prisma: (db, s) =>
      db.reportVersion.update({
        where: { reportId_version: { reportId: s.reportId, version: 1 } },
        data: { record },
        select: { version: true },
      }),
    raw: (db, s) => db.$executeRawUnsafe(RECORD_SQL, s.reportId, 1, record),
    pool: (sql, s) => sql.query(RECORD_SQL, [s.reportId, 1, record]),
  },
  {
    name: `Insert ${BLOCKS} blocks of 1 KB (unnest)`,
    prisma: (db, s, round) => {
      const b = blocks(round, 0);
      return db.symbolBlock.createMany({
        data: b.hashes.map((hash, i) => ({
          targetId: s.targetId,
          hash,
          data: b.data[i]!,
          symbolCount: b.symbols[i]!,
        })),
        skipDuplicates: true,
      });
    },
    raw: (db, s, round) => {
      const b = blocks(round, 1);
      return db.$executeRawUnsafe(BLOCKS_SQL, s.targetId, b.hashes, b.data, b.symbols);
    },
    pool: (sql, s, round) => {
      const b = blocks(round, 2);
      return sql.query(BLOCKS_SQL, [s.targetId, b.hashes, b.data, b.symbols]);
    },
  },
];

async function seed(sql: SqlPool): Promise<Seed> {
  const { rows } = await sql.query<Seed>(
    `WITH u AS (INSERT INTO users (email) VALUES ('bench@example.com') RETURNING id),
     o AS (INSERT INTO organizations (name) VALUES ('Bench') RETURNING id),
     p AS (INSERT INTO projects (name, owner_id, organization_id)
           SELECT 'Bench', u.id, o.id FROM u, o RETURNING id, organization_id),
     k AS (INSERT INTO api_keys (project_id, public_id, secret_hash)
           SELECT id, 'benchkey', 'scrypt$x' FROM p RETURNING public_id),
     t AS (INSERT INTO targets (project_id, name) SELECT id, 'board' FROM p RETURNING id),
     c AS (INSERT INTO commits (project_id, sha) SELECT id, repeat('a', 40) FROM p RETURNING id),
     r AS (INSERT INTO reports (target_id, commit_id, kind, payload_sha256)
           SELECT t.id, c.id, 'full', repeat('0', 64) FROM t, c RETURNING id, target_id),
     v AS (INSERT INTO report_versions (report_id, version, target_id, header)
           SELECT id, 1, target_id, '\\x00' FROM r)
     SELECT k.public_id AS "publicId", r.id::text AS "reportId", r.target_id::text AS "targetId"
     FROM k, r`,
  );
  return rows[0]!;
}

interface Figure {
  cpuUs: number;
  wallUs: number;
}

async function measure(run: (round: number) => Promise<unknown>): Promise<Figure> {
  for (let i = 0; i < WARM_UP; i++) await run(-1 - i);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) await run(i);
  const wallNs = Number(process.hrtime.bigint() - started);
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / ROUNDS, wallUs: wallNs / 1000 / ROUNDS };
}

const ms = (us: number) => (us / 1000).toFixed(2);

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error('bench:db needs DATABASE_URL (a server it may create databases on)');
  const name = `memtrail_bench_db_${randomBytes(4).toString('hex')}`;
  const url = new URL(serverUrl);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  url.pathname = `/${name}`;
  const prisma = createPrismaClient(url.toString(), { poolSize: 1 });
  const sql = createSqlPool(url.toString(), { poolSize: 1 });
  try {
    await migrateDeploy(url.toString());
    const s = await seed(sql);
    console.log(
      `${new Date().toISOString()} · ${cpus()[0]?.model} × ${availableParallelism()} · ` +
        `Node ${process.version} · ${ROUNDS} statements per case, CPU of this process`,
    );
    console.log('| Statement | Prisma model API | Prisma `$queryRaw` | SqlPool (pg) |');
    console.log('| --- | --: | --: | --: |');
    for (const c of cases) {
      const figures = [
        await measure((round) => c.prisma(prisma, s, round)),
        await measure((round) => c.raw(prisma, s, round)),
        await measure((round) => c.pool(sql, s, round)),
      ];
      const cells = figures.map((f) => `${ms(f.cpuUs)} ms (${ms(f.wallUs)} ms wall)`);
      console.log(`| ${c.name} | ${cells.join(' | ')} |`);
    }
  } finally {
    await prisma.$disconnect();
    await sql.end();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

await main();
