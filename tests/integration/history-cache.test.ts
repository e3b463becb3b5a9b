import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import type { HistoryData, ProjectWithApiKey } from '@memtrail/contracts';
import { createIsolatedStores, eventually, freePort, type IsolatedStores } from '@memtrail/testing';
import { BlockCopier } from '../../services/ingest-worker/src/ingest/block-copier.js';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import {
  envelope,
  evolve,
  initialFirmware,
  shaOf,
  toReport,
  type CommitSpec,
  type SyntheticSymbol,
} from '../../services/query/bench/synthetic-firmware.js';
import { startQueryService, startIngestWorker } from './support/read-services.js';
import { seededRandom } from '@memtrail/testing/random';

type Body<T> = { status: string; data: T };
/** A history to read, and which symbols of a build it counts. */
type Line = [path: string, counted: (s: SyntheticSymbol) => boolean];

/**
 * Histories are answered from what the query service keeps per target (the commit timeline,
 * every version's base). One query service reads the same histories again after each change a
 * target can see — a commit ingested, a commit overwritten, a new branch, a report deleted —
 * and must answer what the uploaded firmware says, never what it kept from before. The first
 * commits' blocks are copied to ClickHouse, the later ones' wait in Postgres: histories read
 * both.
 */
describe('symbol and file histories after the target changed', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let query: INestMicroservice | undefined;
  let worker: INestApplicationContext | undefined;
  let token: string;
  let project: ProjectWithApiKey;
  const target = 'cached-board';
  const sha = (i: number) => shaOf('history-cache', i);
  const rnd = seededRandom(31);
  let id = 50_000;
  const churn = { grow: 4, shrink: 3, add: 2, remove: 2, rename: 0, move: 1 };
  const start = Date.parse('2026-09-01T08:00:00Z');
  /** The firmware each uploaded commit holds now, by SHA. */
  const firmware = new Map<string, SyntheticSymbol[]>();
  /** Commits in upload order with their branch. */
  const commits: CommitSpec[] = [];

  const get = <T>(path: string) =>
    call<Body<T>>(gw.url, 'GET', `/api/${project.id}/${target}${path}`, { token });

  const allIngested = () =>
    eventually(
      () => gw.prisma.report.count({ where: { status: { not: 'ingested' } } }),
      (pending) => pending === 0,
      { timeoutMs: 60_000 },
    );

  const upload = async (
    i: number,
    parent: number | null,
    branch: string,
    fw: SyntheticSymbol[],
  ) => {
    const spec: CommitSpec = {
      sha: sha(i),
      parent: parent === null ? null : sha(parent),
      branch,
      target,
      time: new Date(start + i * 3_600_000),
      message: `commit ${i}`,
      kind: 'full',
    };
    const res = await call(gw.url, 'POST', '/upload', {
      body: envelope(spec, toReport(fw)),
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(res.status).toBe(200);
    firmware.set(spec.sha, fw);
    if (!commits.some((c) => c.sha === spec.sha)) commits.push(spec);
    await allIngested();
  };
  const next = (fw: SyntheticSymbol[]) => evolve(fw, churn, rnd, () => id++);

  /** Names that changed somewhere, and some that never did: every kind of history line. */
  const names = () => {
    const all = [...firmware.values()].flatMap((fw) => fw.map((s) => s.name));
    const sizes = new Map<string, Set<string>>();
    for (const fw of firmware.values()) {
      const held = new Map(fw.map((s) => [s.name, s.size]));
      for (const name of new Set(all)) {
        let seen = sizes.get(name);
        if (!seen) sizes.set(name, (seen = new Set()));
        seen.add(String(held.get(name) ?? 'absent'));
      }
    }
    const changed = [...sizes].filter(([, seen]) => seen.size > 1).map(([name]) => name);
    const unchanged = [...sizes].filter(([, seen]) => seen.size === 1).map(([name]) => name);
    return [...changed, ...unchanged.filter((_, i) => i % 40 === 0)];
  };

  /** Every history of `names()` (and of their files) on `selection` is what `shas` held. */
  const expectHistories = async (selection: string, shas: string[]) => {
    const checked = names();
    const sourceOf = (name: string) =>
      [...firmware.values()].flat().find((s) => s.name === name)!.source_file;
    const lines: Line[] = [
      ...checked.map((name): Line => [
        `/symbols/history?${selection}&name=${encodeURIComponent(name)}`,
        (s) => s.name === name,
      ]),
      ...[...new Set(checked.map(sourceOf))].map((file): Line => [
        `/files/history?${selection}&path=${encodeURIComponent(file)}`,
        (s) => s.source_file === file,
      ]),
    ];
    for (const [path, counted] of lines) {
      const res = await get<HistoryData>(path);
      expect(res.status).toBe(200);
      const { size, present } = res.body.data;
      const of = (sha: string) => firmware.get(sha)!.filter(counted);
      expect({ path, shas: res.body.data.shas, size, present }).toEqual({
        path,
        shas,
        size: shas.map((sha) => of(sha).reduce((sum, x) => sum + x.size, 0)),
        present: shas.map((sha) => of(sha).length > 0),
      });
    }
  };
  const main = () => commits.filter((c) => c.branch === 'main').map((c) => c.sha);

  beforeAll(async () => {
    stores = await createIsolatedStores();
    const queryPort = await freePort();
    query = await startQueryService(stores, queryPort);
    // Blocks are copied when the test says so.
    worker = await startIngestWorker(stores, {
      WORKER_COPY_INTERVAL_MS: '0',
      WORKER_COPY_AGE_MS: '0',
    });
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(queryPort),
      QUERY_TIMEOUT_MS: '10000',
    });
    token = (await signUpOnPrem(gw.url, 'cache@example.com')).access_token;
    const created = await call<Body<{ project: ProjectWithApiKey }>>(
      gw.url,
      'POST',
      '/api/projects',
      { token, body: { name: 'History cache', description: '' } },
    );
    project = created.body.data.project;
    let fw = initialFirmware(400, 9);
    for (let i = 1; i <= 4; i++) {
      if (i > 1) fw = next(fw);
      await upload(i, i === 1 ? null : i - 1, 'main', fw);
    }
    await worker.get(BlockCopier).copyDue();
    await expectHistories('branch=main', main());
  }, 180_000);

  afterAll(async () => {
    await gw?.close();
    await worker?.close();
    await query?.close();
    await stores?.cleanup();
  });

  it('sees a commit ingested after the histories were read', async () => {
    await upload(5, 4, 'main', next(firmware.get(sha(4))!));
    const stored = (inClickhouse: boolean) =>
      gw.prisma.symbolBlock.count({ where: { inClickhouse } });
    expect(await stored(true)).toBeGreaterThan(0);
    expect(await stored(false)).toBeGreaterThan(0);
    await expectHistories('branch=main', main());
  }, 120_000);

  it('sees an overwritten commit, and the later commits counted from its first upload', async () => {
    await upload(3, 2, 'main', next(firmware.get(sha(2))!));
    await expectHistories('branch=main', main());
    await expectHistories(`sha=${sha(5)}`, main());
  }, 120_000);

  it('sees a new branch, and leaves the other branch as it was', async () => {
    await upload(6, 5, 'feature/cache', next(firmware.get(sha(5))!));
    await expectHistories('branch=feature%2Fcache', [sha(6)]);
    await expectHistories(`sha=${sha(6)}`, [...main(), sha(6)]);
    await expectHistories('branch=main', main());
  }, 120_000);

  it('drops a deleted report', async () => {
    const report = await gw.prisma.report.findFirstOrThrow({
      where: { target: { name: target, projectId: project.id }, commit: { sha: sha(6) } },
    });
    await gw.prisma.report.delete({ where: { id: report.id } });
    commits.splice(
      commits.findIndex((c) => c.sha === sha(6)),
      1,
    );
    firmware.delete(sha(6));
    const branch = await get<HistoryData>('/symbols/history?branch=feature%2Fcache&name=x');
    expect(branch.status).toBe(404);
    await expectHistories('branch=main', main());
  }, 120_000);
});
