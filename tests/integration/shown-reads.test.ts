import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import type {
  CommitDiffData,
  CommitPageData,
  CommitReportData,
  HistoryData,
  MemoryReport,
  ProjectWithApiKey,
  RegionSeriesData,
  ReportRegion,
  ReportSymbol,
  SymbolPageData,
  TreeData,
} from '@memtrail/contracts';
import { createIsolatedStores, eventually, freePort, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { envelope, shaOf, type CommitSpec } from '../../services/query/bench/synthetic-firmware.js';
import { startIngestWorker, startQueryService } from './support/read-services.js';

type Body<T> = { status: string; type: string | null; error: string | null; data: T };

const FLASH = 0x0800_0000;
const RAM = 0x2000_0000;

interface Build {
  /** Names of the flash and RAM regions in this build (renamed half-way, as ChibiOS did). */
  flash: string;
  ram: string;
  /** The build machine's checkout folder. */
  root: string;
  /** Functions (in .text) and their sizes; 0-byte LTO markers among them. */
  code: Record<string, number>;
  /** Objects in .bss. */
  data: Record<string, number>;
}

/**
 * A report as our CLI writes it: symbols in .text (flash) and .bss (RAM) laid out one after
 * another, sections and region totals derived from them, and a zero-length placeholder region
 * `flash1` as ChibiOS's linker scripts declare.
 */
function report(build: Build): MemoryReport {
  const place = (
    symbols: Record<string, number>,
    section: string,
    base: number,
    type: string,
  ): ReportSymbol[] => {
    let at = base;
    return Object.entries(symbols).map(([name, size]) => {
      const symbol: ReportSymbol = {
        name,
        address: at,
        size,
        type,
        binding: 'GLOBAL',
        section,
        source_file: `${build.root}/${type === 'FUNC' ? 'os/rt/src/chthreads.c' : 'demos/main.c'}`,
      };
      at += size;
      return symbol;
    });
  };
  const text = place(build.code, '.text', FLASH, 'FUNC');
  const bss = place(build.data, '.bss', RAM, 'OBJECT');
  const region = (address: number, limit: number, section: string, symbols: ReportSymbol[]) => {
    const used = symbols.reduce((sum, s) => sum + s.size, 0);
    const sections = used
      ? [
          {
            name: section,
            address,
            size: used,
            type: section === '.text' ? 'code' : 'data',
            end_address: address + used,
          },
        ]
      : [];
    return {
      address,
      limit_size: limit,
      type: 'UNKNOWN',
      used_size: used,
      free_size: limit - used,
      utilization_percent: limit ? (used / limit) * 100 : 0,
      sections,
    } satisfies ReportRegion;
  };
  return {
    file_path: 'build/ch.elf',
    architecture: 'ARM',
    entry_point: FLASH,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    program_headers: [],
    symbols: [...text, ...bss],
    memory_layout: {
      [build.flash]: region(FLASH, 1 << 20, '.text', text),
      flash1: region(0, 0, '.text', []),
      [build.ram]: region(RAM, 128 << 10, '.bss', bss),
    },
  };
}

const BUILDS: Build[] = [
  {
    flash: 'flash',
    ram: 'ram',
    root: '/home/ci/build-1/chibios',
    code: { chThdCreateStatic: 100, main: 200, 'chcond.c.1a2b3c': 0 },
    data: { ch_system: 64 },
  },
  {
    flash: 'flash0',
    ram: 'ram0',
    root: '/builds/runner-7/chibios',
    code: { 'chThdCreateStatic.constprop.0': 96, main: 180, 'chcond.c.9f8e7d': 0 },
    data: { ch_system: 64 },
  },
  {
    flash: 'flash0',
    ram: 'ram0',
    root: '/builds/runner-7/chibios',
    code: { chThdCreateStatic: 104, main: 180, 'chcond.c.9f8e7d': 0 },
    data: { ch_system: 72 },
  },
];

/**
 * Reads of a target whose history renames its regions, moves its checkout and clones a function,
 * before and after a region configuration says how to show it: merged regions, display names,
 * order, limits, placeholders, repository-relative paths, symbol identity and symbol pages.
 */
describe('reads as the region configuration shows them', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let query: INestMicroservice;
  let worker: INestApplicationContext;
  let token: string;
  let project: ProjectWithApiKey;
  const target = 'chibios-f407';
  const sha = (i: number) => shaOf('shown-reads', i);

  const get = <T>(path: string) =>
    call<Body<T>>(gw.url, 'GET', `/api/${project.id}/${target}${path}`, { token });
  const configure = async (config: unknown) =>
    expect(
      (
        await call(gw.url, 'PUT', `/api/${project.id}/${target}/region-config`, {
          token,
          body: { region_config: config },
        })
      ).status,
    ).toBe(200);

  beforeAll(async () => {
    stores = await createIsolatedStores();
    const queryPort = await freePort();
    query = await startQueryService(stores, queryPort);
    worker = await startIngestWorker(stores, {
      // Blocks reach ClickHouse soon, so reads take them from there as well as from Postgres.
      WORKER_COPY_AGE_MS: '0',
      WORKER_COPY_INTERVAL_MS: '200',
    });
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(queryPort),
      QUERY_TIMEOUT_MS: '5000',
    });
    token = (await signUpOnPrem(gw.url, 'shown@example.com')).access_token;
    project = (
      await call<Body<{ project: ProjectWithApiKey }>>(gw.url, 'POST', '/api/projects', {
        token,
        body: { name: 'ChibiOS history', description: '' },
      })
    ).body.data.project;
    for (const [i, build] of BUILDS.entries()) {
      const spec: CommitSpec = {
        sha: sha(i),
        parent: i === 0 ? null : sha(i - 1),
        branch: 'main',
        target,
        time: new Date(Date.UTC(2014 + i * 4, 0, 1)),
        message: `build ${i}`,
        kind: 'full',
      };
      const res = await call(gw.url, 'POST', '/upload', {
        body: envelope(spec, report(build)),
        headers: { authorization: `Bearer ${project.api_key}` },
      });
      expect(res.status).toBe(200);
    }
    await eventually(
      () => gw.prisma.report.count({ where: { status: { not: 'ingested' } } }),
      (pending) => pending === 0,
      { timeoutMs: 30_000 },
    );
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await worker?.close();
    await query?.close();
    await stores?.cleanup();
  });

  it('compares a renamed region as one, lists no 0-byte markers, and hides no size change', async () => {
    const res = await get<CommitDiffData>(`/commit/${sha(0)}/${sha(1)}`);
    expect(res.status).toBe(200);
    const { diff } = res.body.data;
    expect(diff.regions.map((r) => [r.name, r.old_name, r.status, r.hidden])).toEqual([
      ['flash1', undefined, 'unchanged', true],
      ['flash0', 'flash', 'modified', false],
      ['ram0', 'ram', 'unchanged', false],
    ]);
    // The checkout moved and the region was renamed: main only shrank.
    expect(diff.symbols.map((s) => [s.name, s.old_name, s.status, s.delta])).toEqual([
      ['main', undefined, 'modified', -20],
      ['chThdCreateStatic.constprop.0', 'chThdCreateStatic', 'modified', -4],
    ]);
    expect(diff.totals).toMatchObject({
      symbols_added: 0,
      symbols_removed: 0,
      zero_size_changes: 2,
    });
    const markers = await get<CommitDiffData>(`/commit/${sha(0)}/${sha(1)}?zero_size=true`);
    expect(
      markers.body.data.diff.symbols
        .filter((s) => s.delta === 0)
        .map((s) => [s.name, s.status])
        .sort(),
    ).toEqual([
      ['chcond.c.1a2b3c', 'removed'],
      ['chcond.c.9f8e7d', 'added'],
    ]);
  });

  it('follows a function through its compiler clones in its history', async () => {
    const res = await get<HistoryData>('/symbols/history?name=chThdCreateStatic&branch=main');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      size: [100, 96, 104],
      present: [true, true, true],
      names: [['chThdCreateStatic'], ['chThdCreateStatic.constprop.0'], ['chThdCreateStatic']],
      appeared: { sha: sha(0) },
      largest_change: { sha: sha(2), delta: 8 },
    });
    const clone = await get<HistoryData>(
      `/symbols/history?name=${encodeURIComponent('chThdCreateStatic.constprop.0')}&branch=main`,
    );
    expect(clone.body.data.size).toEqual([100, 96, 104]);
  });

  it('shows every region under its own name until configured, placeholders hidden', async () => {
    const series = await get<RegionSeriesData>('/series/regions?branch=main');
    expect(
      series.body.data.regions.map((r) => [r.name, r.hidden, r.placeholder, r.used_size]),
    ).toEqual([
      ['flash1', true, true, [0, 0, 0]],
      ['flash', false, false, [300, null, null]],
      ['flash0', false, false, [null, 276, 284]],
      ['ram', false, false, [64, null, null]],
      ['ram0', false, false, [null, 64, 72]],
    ]);
  });

  it('merges, names, orders and limits regions everywhere once configured', async () => {
    await configure({
      version: 2,
      regions: {
        flash: { merge_into: 'flash0' },
        ram: { merge_into: 'ram0' },
        flash0: { display_name: 'Main flash', kind: 'flash', order: 2 },
        ram0: { display_name: 'SRAM', order: 1, limit: 112 << 10 },
      },
    });
    const series = await get<RegionSeriesData>('/series/regions?branch=main');
    expect(
      series.body.data.regions.map((r) => [
        r.name,
        r.display_name,
        r.kind,
        r.used_size,
        r.limit_size,
      ]),
    ).toEqual([
      ['ram0', 'SRAM', null, [64, 64, 72], [112 << 10, 112 << 10, 112 << 10]],
      ['flash0', 'Main flash', 'flash', [300, 276, 284], [1 << 20, 1 << 20, 1 << 20]],
      ['flash1', 'flash1', null, [0, 0, 0], [0, 0, 0]],
    ]);

    const commits = await get<CommitPageData>(`/commits/${sha(1)}`);
    expect(commits.body.data.commits[0]!.regions.map((r) => [r.name, r.used_change])).toEqual([
      ['ram0', 0],
      ['flash0', -24],
      ['flash1', 0],
    ]);

    const old = await get<CommitReportData>(`/commit/${sha(0)}?include_symbols=true`);
    expect(old.body.data.regions.map((r) => [r.name, r.display_name, r.used_size])).toEqual([
      ['ram0', 'SRAM', 64],
      ['flash0', 'Main flash', 300],
      ['flash1', 'flash1', 0],
    ]);
    expect(old.body.data.sections.map((s) => s.region).sort()).toEqual(['flash0', 'ram0']);
    expect(old.body.data.symbols!.map((s) => [s.name, s.region, s.source_file])).toEqual([
      ['chThdCreateStatic', 'flash0', 'os/rt/src/chthreads.c'],
      ['main', 'flash0', 'os/rt/src/chthreads.c'],
      ['chcond.c.1a2b3c', 'flash0', 'os/rt/src/chthreads.c'],
      ['ch_system', 'ram0', 'demos/main.c'],
    ]);

    const tree = await get<TreeData>(`/commit/${sha(0)}/tree`);
    expect(tree.body.data.tree.children!.map((r) => [r.name, r.display_name])).toEqual([
      ['flash0', 'Main flash'],
      ['ram0', 'SRAM'],
    ]);
    // Below a region the tree starts at the repository's folders, not the build machine's.
    expect(tree.body.data.tree.children![0]!.children![0]!.children!.map((d) => d.name)).toEqual([
      'os',
    ]);

    const across = await get<CommitDiffData>(`/commit/${sha(0)}/${sha(2)}`);
    expect(
      across.body.data.diff.regions.map((r) => [r.name, r.display_name, r.used_change]),
    ).toEqual([
      ['ram0', 'SRAM', 8],
      ['flash0', 'Main flash', -16],
      ['flash1', 'flash1', 0],
    ]);
  });

  it('pages, sorts, filters and searches symbols on the server', async () => {
    const page = (query: string) => get<SymbolPageData>(`/commit/${sha(2)}/symbols?${query}`);
    const bySize = await page('limit=2');
    expect(bySize.body.data).toMatchObject({
      total: 4,
      matched: 4,
      matched_bytes: 104 + 180 + 72,
      offset: 0,
      source_root: '/builds/runner-7/chibios/',
    });
    expect(bySize.body.data.rows!.map((r) => r.name)).toEqual(['main', 'chThdCreateStatic']);
    const next = await page('limit=2&offset=2');
    expect(next.body.data.rows!.map((r) => r.name)).toEqual(['ch_system', 'chcond.c.9f8e7d']);
    const byName = await page('sort=name&order=asc');
    expect(byName.body.data.rows!.map((r) => r.name)).toEqual([
      'chThdCreateStatic',
      'ch_system',
      'chcond.c.9f8e7d',
      'main',
    ]);
    const search = await page('q=CHTHD');
    expect(search.body.data).toMatchObject({ matched: 1, matched_bytes: 104 });
    const file = await page(`file=${encodeURIComponent('demos/main.c')}`);
    expect(file.body.data.rows!.map((r) => r.name)).toEqual(['ch_system']);
    const region = await page('region=flash0&section=.text&sort=address&order=asc');
    expect(region.body.data.rows!.map((r) => r.name)).toEqual([
      'chThdCreateStatic',
      'main',
      'chcond.c.9f8e7d',
    ]);
    expect((await page('sort=colour')).status).toBe(400);
    expect((await page('limit=5000')).status).toBe(400);
  });

  it('reads a report of hundreds of symbol blocks back from ClickHouse', async () => {
    // 16,000 functions are several hundred blocks, more ids than one ClickHouse URL takes.
    const code = Object.fromEntries(
      Array.from({ length: 16_000 }, (_, i) => [`handler_${i}`, 4 + (i % 40)]),
    );
    const large = 'chibios-large';
    const spec: CommitSpec = {
      sha: sha(9),
      parent: null,
      branch: 'main',
      target: large,
      time: new Date(Date.UTC(2026, 0, 1)),
      message: 'large build',
      kind: 'full',
    };
    const build = { ...BUILDS[2]!, code, data: {} };
    const upload = await call(gw.url, 'POST', '/upload', {
      body: envelope(spec, report(build)),
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(upload.status).toBe(200);
    await eventually(
      () => gw.prisma.symbolBlock.count({ where: { inClickhouse: false } }),
      (waiting) => waiting === 0,
      { timeoutMs: 60_000 },
    );
    expect(await gw.prisma.symbolBlock.count()).toBeGreaterThan(300);
    const page = await call<Body<SymbolPageData>>(
      gw.url,
      'GET',
      `/api/${project.id}/${large}/commit/${sha(9)}/symbols?sort=address&order=desc&limit=1`,
      { token },
    );
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({
      total: 16_000,
      matched_bytes: Object.values(code).reduce((sum, size) => sum + size, 0),
    });
    expect(page.body.data.rows!.map((r) => r.name)).toEqual(['handler_15999']);
  }, 120_000);

  it('strips the configured source root instead of the one found', async () => {
    await configure({ version: 2, regions: {}, source_root: '/builds/runner-7/chibios/os' });
    const page = await get<SymbolPageData>(`/commit/${sha(2)}/symbols?sort=address&order=asc`);
    expect(page.body.data.source_root).toBe('/builds/runner-7/chibios/os');
    expect(page.body.data.rows!.map((r) => r.source_file)).toEqual([
      'rt/src/chthreads.c',
      'rt/src/chthreads.c',
      'rt/src/chthreads.c',
      '/builds/runner-7/chibios/demos/main.c',
    ]);
  });
});
