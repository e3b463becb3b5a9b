import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Prisma,
  ReportKind,
  ReportStatus,
  createPrismaClient,
  createSqlPool,
  inTransaction,
  migrateDeploy,
  parseDatabaseUrl,
  type PrismaClient,
} from '../src/index.js';
import { createTempDatabase, withClient, type TempDatabase } from './database.js';

let database: TempDatabase;
let db: PrismaClient;

beforeAll(async () => {
  database = await createTempDatabase();
  await migrateDeploy(database.url);
  db = createPrismaClient(database.url, { poolSize: 3 });
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

let counter = 0;
async function makeProject() {
  counter += 1;
  const owner = await db.user.create({
    data: { email: `owner${counter}@example.com`, passwordHash: 'scrypt$…', fullName: 'Owner' },
  });
  return db.project.create({
    data: {
      name: `Project ${counter}`,
      owner: { connect: { id: owner.id } },
      organization: {
        create: { name: 'Owner', members: { create: { userId: owner.id, role: 'owner' } } },
      },
    },
  });
}

async function expectUniqueViolation(operation: Promise<unknown>): Promise<void> {
  const error = await operation.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
}

describe('createPrismaClient', () => {
  it('round-trips project → target → commit → report with a gzip payload and JSON totals', async () => {
    const project = await makeProject();
    const regionConfig = { FLASH: { limit: 1_048_576 }, RAM: { limit: 262_144 } };
    const target = await db.target.create({
      data: { projectId: project.id, name: 'stm32f4-release', regionConfig },
    });
    const committedAt = new Date('2026-11-21T09:55:39.123Z');
    const commit = await db.commit.create({
      data: {
        projectId: project.id,
        sha: 'a'.repeat(40),
        message: 'Shrink the USB stack\n\nDrops 2 KiB of RAM.',
        authorName: 'Dev',
        authorEmail: 'dev@example.com',
        committedAt,
        tags: ['v1.2.0', 'release'],
      },
    });

    const envelope = JSON.stringify({ metadata: { target_name: 'stm32f4-release' } });
    const payload = gzipSync(envelope);
    const regionTotals = { FLASH: { used: 123_456, limit: 1_048_576 }, RAM: { used: 4096 } };
    const sectionTotals = { '.text': { size: 120_000, region: 'FLASH' }, '.bss': { size: 4096 } };
    const created = await db.report.create({
      data: {
        targetId: target.id,
        commitId: commit.id,
        parentSha: 'b'.repeat(40),
        branch: 'main',
        prNumber: '12',
        kind: ReportKind.full,
        payload,
        payloadSha256: createHash('sha256').update(envelope).digest('hex'),
        regionTotals,
        sectionTotals,
        symbolCount: 2,
        analysisVersion: '1.2.9',
      },
    });
    expect(created.status).toBe(ReportStatus.pending);
    expect(created.version).toBe(1);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    const loaded = await db.report.findUniqueOrThrow({
      where: { targetId_commitId: { targetId: target.id, commitId: commit.id } },
      include: { commit: true, target: true },
    });
    expect(Buffer.from(loaded.payload!).equals(payload)).toBe(true);
    expect(gunzipSync(loaded.payload!).toString()).toBe(envelope);
    expect(loaded.regionTotals).toEqual(regionTotals);
    expect(loaded.sectionTotals).toEqual(sectionTotals);
    expect(loaded.noParent).toBe(false);
    expect(loaded.commit.tags).toEqual(['v1.2.0', 'release']);
    expect(loaded.commit.committedAt?.toISOString()).toBe(committedAt.toISOString());
    expect(loaded.target.regionConfig).toEqual(regionConfig);

    // An overwrite as the gateway does it: new payload, version and overwrite count bumped.
    const overwritten = await db.report.update({
      where: { id: created.id },
      data: {
        payload: gzipSync('{}'),
        version: { increment: 1 },
        overwriteCount: { increment: 1 },
        status: ReportStatus.ingested,
        ingestedAt: new Date(),
      },
    });
    expect(overwritten.version).toBe(2);
    expect(overwritten.overwriteCount).toBe(1);
    expect(overwritten.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());

    await db.head.create({
      data: { targetId: target.id, branch: 'main', commitSha: commit.sha, reportId: created.id },
    });
    const heads = await db.head.findMany({ where: { targetId: target.id } });
    expect(heads.map((head) => [head.branch, head.commitSha])).toEqual([['main', commit.sha]]);

    // The sweeper's query shape: pending reports by age.
    const pending = await db.report.findMany({
      where: { status: ReportStatus.pending, updatedAt: { lt: new Date(Date.now() + 1000) } },
    });
    expect(pending.map((report) => report.id)).not.toContain(created.id);
  });

  it('enforces one report per target and commit, and one commit per project and sha', async () => {
    const project = await makeProject();
    const other = await makeProject();
    const target = await db.target.create({ data: { projectId: project.id, name: 'board' } });
    const sha = 'c'.repeat(40);
    const commit = await db.commit.create({ data: { projectId: project.id, sha } });

    await expectUniqueViolation(db.commit.create({ data: { projectId: project.id, sha } }));
    // The same sha in another project is a different commit.
    await expect(db.commit.create({ data: { projectId: other.id, sha } })).resolves.toBeTruthy();

    const report = {
      targetId: target.id,
      commitId: commit.id,
      kind: ReportKind.identical,
      payload: gzipSync('{}'),
      payloadSha256: '0'.repeat(64),
    };
    await db.report.create({ data: report });
    await expectUniqueViolation(db.report.create({ data: report }));

    await expectUniqueViolation(
      db.target.create({ data: { projectId: project.id, name: 'board' } }),
    );
  });

  it('stores emails only trimmed and lowercased', async () => {
    await db.user.create({ data: { email: 'ada@example.com' } });
    await expect(db.user.create({ data: { email: 'Ada@Example.com' } })).rejects.toThrow(
      /users_email_normalized_check/,
    );
    await expectUniqueViolation(db.user.create({ data: { email: 'ada@example.com' } }));
  });

  it('keeps at most poolSize connections', async () => {
    const rows = await Promise.all(
      Array.from(
        { length: 9 },
        () => db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid FROM pg_sleep(0.1)`,
      ),
    );
    const pids = new Set(rows.map(([row]) => row!.pid));
    expect(pids.size).toBe(3);
  });

  it('runs interactive transactions through the adapter', async () => {
    const project = await makeProject();
    await expect(
      db.$transaction(async (tx) => {
        await tx.target.create({ data: { projectId: project.id, name: 'rolled-back' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.target.count({ where: { projectId: project.id } })).toBe(0);
  });
});

describe('createSqlPool', () => {
  it('outlives an idle connection terminated by the server', async () => {
    const failures: Error[] = [];
    const pool = createSqlPool(database.url, { poolSize: 1, onIdleError: (e) => failures.push(e) });
    try {
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const dropped = new Promise((resolve) => pool.once('error', resolve));
      await withClient(database.url, (admin) =>
        admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]),
      );
      await dropped;
      expect(failures[0]?.message).toMatch(/terminating connection/);
      const again = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(again.rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
    // Without a listener of the caller's, the failure is still heard.
    const plain = createSqlPool(database.url);
    expect(plain.listenerCount('error')).toBe(1);
    await plain.end();
  });
});

describe('inTransaction', () => {
  it('runs transactions with the same lock one after another, whatever the key holds', async () => {
    const pool = createSqlPool(database.url, { poolSize: 4 });
    try {
      await pool.query('CREATE TABLE lock_log (key text, event text, at serial)');
      const key = `p/it's a \\ target`;
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const log = (db: { query: (q: string, v: unknown[]) => Promise<unknown> }, event: string) =>
        db.query('INSERT INTO lock_log (key, event) VALUES ($1, $2)', [key, event]);
      const first = inTransaction(
        pool,
        async (db) => {
          await log(db, 'first in');
          entered();
          await holding;
          await log(db, 'first out');
        },
        { lock: key },
      );
      await inside;
      const second = inTransaction(pool, (db) => log(db, 'second'), { lock: key });
      const other = inTransaction(pool, (db) => log(db, 'other key'), { lock: `${key}!` });
      await other;
      release();
      await Promise.all([first, second]);
      const { rows } = await pool.query<{ event: string }>(
        'SELECT event FROM lock_log ORDER BY at',
      );
      // The other key ran while the first held its lock; the same key waited for it.
      expect(rows.map((r) => r.event)).toEqual(['first in', 'other key', 'first out', 'second']);
      const waited = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_locks WHERE locktype = $1',
        ['advisory'],
      );
      expect(waited.rows[0]!.n).toBe(0);
    } finally {
      await pool.end();
    }
  });
});

describe('parseDatabaseUrl', () => {
  it("takes Prisma's connection_limit parameter off the URL", () => {
    expect(parseDatabaseUrl('postgres://u:p@h:5432/db?connection_limit=5&sslmode=disable')).toEqual(
      { url: 'postgres://u:p@h:5432/db?sslmode=disable', connectionLimit: 5 },
    );
    expect(parseDatabaseUrl('postgresql://h/db')).toEqual({ url: 'postgresql://h/db' });
  });

  it('rejects what is not a postgres URL', () => {
    expect(() => parseDatabaseUrl('mysql://h/db')).toThrow(/must be a postgres:\/\/ URL/);
    expect(() => parseDatabaseUrl('not a url')).toThrow(/not a valid URL/);
    expect(() => parseDatabaseUrl('postgres://h/db?connection_limit=0')).toThrow(
      /positive integer/,
    );
  });
});
