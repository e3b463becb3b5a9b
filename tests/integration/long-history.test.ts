import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import type {
  CommitReportData,
  MemoryReport,
  ProjectWithApiKey,
  ReportSymbol,
} from '@memtrail/contracts';
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

const COMMITS = 110;
const SYMBOLS = 2000;

/**
 * A long history uploaded through the gateway — every commit a few symbols grown, shrunk,
 * added, removed, renamed or moved between sections, with names held by several files, aliases
 * at one address, overwritten commits, identical and failed builds — then every report read
 * back and compared symbol for symbol with what was uploaded: first with half of the blocks in
 * ClickHouse and half still in Postgres, then, from a fresh query service, all in ClickHouse.
 */
describe('a long history read back symbol for symbol', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let query: INestMicroservice | undefined;
  let worker: INestApplicationContext | undefined;
  let queryPort: number;
  let token: string;
  let project: ProjectWithApiKey;
  const target = 'long-board';
  const sha = (i: number) => shaOf('long-history', i);
  /** What each commit's report must read back as: its last upload (or its parent's). */
  const expected = new Map<string, MemoryReport | null>();

  const startQuery = async () => {
    query = await startQueryService(stores, queryPort);
  };

  const upload = async (spec: CommitSpec, report: MemoryReport | null) => {
    const res = await call(gw.url, 'POST', '/upload', {
      body: envelope(spec, report),
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(res.status).toBe(200);
  };

  const allIngested = () =>
    eventually(
      () => gw.prisma.report.count({ where: { status: 'pending' } }),
      (pending) => pending === 0,
      { timeoutMs: 180_000 },
    );

  /** The report with aliases: a second name at some functions' address, right after them. */
  const withAliases = (symbols: SyntheticSymbol[]): MemoryReport => {
    const report = toReport(symbols);
    report.symbols = report.symbols.flatMap((s, i) =>
      s.type === 'FUNC' && i % 50 === 7 ? [s, { ...s, name: `${s.name}_alias` }] : [s],
    );
    return report;
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    queryPort = await freePort();
    await startQuery();
    worker = await startIngestWorker(stores, {
      // Copied when the test says so: half of the history is read from each store.
      WORKER_COPY_INTERVAL_MS: '0',
      WORKER_COPY_AGE_MS: '0',
    });
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(queryPort),
      QUERY_TIMEOUT_MS: '10000',
    });
    token = (await signUpOnPrem(gw.url, 'history@example.com')).access_token;
    const created = await call<Body<{ project: ProjectWithApiKey }>>(
      gw.url,
      'POST',
      '/api/projects',
      { token, body: { name: 'Long history', description: '' } },
    );
    project = created.body.data.project;

    const rnd = seededRandom(23);
    let id = 100_000;
    const nextId = () => id++;
    // Static functions of one name in several files.
    let firmware = initialFirmware(SYMBOLS, 5).map((s, i) =>
      i > 0 && i % 97 === 0 ? { ...s, name: 'static_helper' } : s,
    );
    const churn = { grow: 3, shrink: 2, add: 2, remove: 1, rename: 1, move: 1 };
    const start = Date.parse('2024-01-01T08:00:00Z');
    for (let i = 1; i <= COMMITS; i++) {
      const kind: CommitSpec['kind'] =
        i % 17 === 0 ? 'identical' : i === 33 ? 'build_failed' : 'full';
      const spec: CommitSpec = {
        sha: sha(i),
        parent: i === 1 ? null : sha(i - 1),
        branch: 'main',
        target,
        time: new Date(start + i * 86_400_000),
        message: `commit ${i}`,
        kind,
      };
      if (kind === 'identical') {
        // Its record is its parent's, which must be in first.
        await allIngested();
        await upload(spec, null);
        expected.set(spec.sha, expected.get(sha(i - 1))!);
      } else if (kind === 'build_failed') {
        await upload(spec, null);
        expected.set(spec.sha, null);
      } else {
        if (i > 1) firmware = evolve(firmware, churn, rnd, nextId);
        let report = withAliases(firmware);
        await upload(spec, report);
        if (i % 10 === 5) {
          // Uploaded again with another build: the second upload wins.
          firmware = evolve(firmware, churn, rnd, nextId);
          report = withAliases(firmware);
          await upload(spec, report);
        }
        expected.set(spec.sha, report);
      }
      if (i === COMMITS / 2) {
        await allIngested();
        await worker.get(BlockCopier).copyDue();
      }
    }
    await allIngested();
  }, 600_000);

  afterAll(async () => {
    await gw?.close();
    await worker?.close();
    await query?.close();
    await stores?.cleanup();
  });

  /** A report's symbols as a read must give them: by address, the upload's order at one address. */
  const inAddressOrder = (symbols: readonly ReportSymbol[]) =>
    symbols
      .map((s, i) => ({ s, i }))
      .sort((a, b) => a.s.address - b.s.address || a.i - b.i)
      .map(({ s }) => [
        s.name,
        s.address,
        s.size,
        s.type,
        s.binding,
        s.section,
        s.section === '.data' || s.section === '.bss' ? 'RAM' : 'FLASH',
        s.source_file,
        s.source_line ?? 0,
        s.archive,
        s.object_file,
      ]);

  const readAll = async () => {
    let reports = 0;
    for (const [commit, report] of expected) {
      const res = await call<Body<CommitReportData>>(
        gw.url,
        'GET',
        `/api/${project.id}/${target}/commit/${commit}?include_symbols=true`,
        { token },
      );
      expect(res.status).toBe(200);
      const symbols = res.body.data.symbols!.map((s) => [
        s.name,
        s.address,
        s.size,
        s.type,
        s.binding,
        s.section,
        s.region,
        s.source_file,
        s.source_line,
        s.archive,
        s.object_file,
      ]);
      // Compared whole, so a failure names the commit.
      expect({ commit, symbols }).toEqual({
        commit,
        symbols: report ? inAddressOrder(report.symbols) : [],
      });
      if (report) reports++;
    }
    return reports;
  };

  it('reads every report back as uploaded, from ClickHouse and from Postgres', async () => {
    const waiting = await gw.prisma.symbolBlock.count({ where: { inClickhouse: false } });
    const copied = await gw.prisma.symbolBlock.count({ where: { inClickhouse: true } });
    expect(waiting).toBeGreaterThan(0);
    expect(copied).toBeGreaterThan(0);
    expect(await readAll()).toBeGreaterThanOrEqual(100);
  }, 300_000);

  it('reads them the same once every block is in ClickHouse, from a query service that starts cold', async () => {
    await worker!.get(BlockCopier).copyDue();
    expect(await gw.prisma.symbolBlock.count({ where: { inClickhouse: false } })).toBe(0);
    await query!.close();
    await startQuery();
    expect(await readAll()).toBeGreaterThanOrEqual(100);
  }, 300_000);
});
