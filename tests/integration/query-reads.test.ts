import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';
import { isSerialized, QueryPatterns, type Serialized } from '@memtrail/contracts';
import type {
  CommitDiffData,
  CommitPageData,
  CommitReportData,
  GrowersData,
  HeadsData,
  HistoryData,
  MemoryReport,
  ProjectWithApiKey,
  RegionSeriesData,
  ReportDiff,
  SectionSeriesData,
  TreeData,
} from '@memtrail/contracts';
import { diffReports } from '@memtrail/report';
import { signMessage } from '@memtrail/rpc-auth';
import { createIsolatedStores, eventually, freePort, type IsolatedStores } from '@memtrail/testing';
import { createQueryClient } from '../../services/gateway/src/infra/query-client.js';
import {
  call,
  signUpOnPrem,
  startGateway,
  TEST_QUERY_SECRET,
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

type Body<T> = { status: string; type: string | null; error: string | null; data: T };

/**
 * A history on branch main — full, full, identical, failed build, full equal to the last
 * footprint, full — and one feature-branch commit, uploaded through the gateway and ingested by
 * the worker. Expected answers are derived from the generated reports (and, for diffs, from the
 * diff engine run locally on the full reports), never written out by hand.
 */
describe('query reads through the gateway', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let query: INestMicroservice | undefined;
  let worker: INestApplicationContext | undefined;
  let queryPort: number;
  let token: string;
  let strangerToken: string;
  let project: ProjectWithApiKey;
  const target = 'board-a';
  const firmware = new Map<string, SyntheticSymbol[]>();
  const reports = new Map<string, MemoryReport>();
  const specs: CommitSpec[] = [];
  const sha = (i: number) => shaOf('query-reads', i);

  const startQuery = async () => {
    query = await startQueryService(stores, queryPort);
  };

  const startWorker = async () => {
    worker = await startIngestWorker(stores);
  };

  const get = <T>(path: string, as = token) =>
    call<Body<T>>(gw.url, 'GET', `/api/${project.id}/${target}${path}`, { token: as });

  const upload = async (spec: CommitSpec, fw: SyntheticSymbol[] | null) => {
    const report = fw ? toReport(fw) : null;
    if (report) reports.set(spec.sha, report);
    const res = await call(gw.url, 'POST', '/upload', {
      body: envelope(spec, report),
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(res.status).toBe(200);
  };

  const allIngested = () =>
    eventually(
      () => gw.prisma.report.count({ where: { status: { not: 'ingested' } } }),
      (pending) => pending === 0,
      { timeoutMs: 30_000 },
    );

  beforeAll(async () => {
    stores = await createIsolatedStores();
    queryPort = await freePort();
    await startQuery();
    await startWorker();
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      QUERY_PORT: String(queryPort),
      QUERY_TIMEOUT_MS: '5000',
    });
    token = (await signUpOnPrem(gw.url, 'reader@example.com')).access_token;
    strangerToken = (await signUpOnPrem(gw.url, 'stranger@example.com')).access_token;
    const created = await call<Body<{ project: ProjectWithApiKey }>>(
      gw.url,
      'POST',
      '/api/projects',
      {
        token,
        body: { name: 'Query reads', description: '' },
      },
    );
    project = created.body.data.project;

    const rnd = seededRandom(7);
    let id = 10_000;
    const f1 = initialFirmware(300, 1);
    const f2 = evolve(
      f1,
      { grow: 4, shrink: 3, add: 2, remove: 2, rename: 2, move: 2 },
      rnd,
      () => id++,
    );
    const f3 = evolve(
      f2,
      { grow: 3, shrink: 1, add: 1, remove: 1, rename: 1, move: 1 },
      rnd,
      () => id++,
    );
    const f4 = evolve(
      f3,
      { grow: 5, shrink: 0, add: 3, remove: 0, rename: 0, move: 0 },
      rnd,
      () => id++,
    );
    const kinds: [CommitSpec['kind'], SyntheticSymbol[] | null][] = [
      ['full', f1],
      ['full', f2],
      ['identical', null],
      ['build_failed', null],
      ['full', f2],
      ['full', f3],
    ];
    const start = Date.parse('2026-10-01T08:00:00Z');
    for (const [i, [kind, fw]] of kinds.entries()) {
      const spec: CommitSpec = {
        sha: sha(i + 1),
        parent: i === 0 ? null : sha(i),
        branch: 'main',
        target,
        time: new Date(start + i * 3_600_000),
        message: `commit ${i + 1}`,
        kind,
      };
      specs.push(spec);
      if (fw) firmware.set(spec.sha, fw);
      await upload(spec, fw);
      // An identical build copies its parent's rows, so the parent must be in first.
      await allIngested();
    }
    const feature: CommitSpec = {
      sha: sha(100),
      parent: sha(6),
      branch: 'feature/x',
      target,
      time: new Date(start + 10 * 3_600_000),
      message: 'feature work',
      kind: 'full',
    };
    specs.push(feature);
    firmware.set(feature.sha, f4);
    await upload(feature, f4);
    await allIngested();
  }, 120_000);

  afterAll(async () => {
    await gw?.close();
    await worker?.close();
    await query?.close();
    await stores?.cleanup();
  });

  /** The footprint each main commit shows: identical builds carry their parent's. */
  const footprint = (i: number): MemoryReport | null => {
    const spec = specs[i]!;
    if (spec.kind === 'build_failed') return null;
    if (spec.kind === 'identical') return footprint(i - 1);
    return reports.get(spec.sha)!;
  };
  /**
   * A diff as the query service shows it for a target without a region configuration: every
   * region under its own name, none hidden (the synthetic regions are neither empty nor
   * zero-length).
   */
  const shown = (diff: ReportDiff) => ({
    ...diff,
    regions: diff.regions.map((r) => ({
      ...r,
      display_name: r.name,
      kind: null,
      hidden: false,
      placeholder: false,
    })),
  });
  const used = (r: MemoryReport) =>
    JSON.stringify(Object.entries(r.memory_layout).map(([n, x]) => [n, x.used_size, x.limit_size]));

  it('lists heads per branch with their commits', async () => {
    const res = await get<HeadsData>('/heads');
    expect(res.status).toBe(200);
    const heads = Object.fromEntries(res.body.data.heads.map((h) => [h.branch, h]));
    expect(heads.main).toMatchObject({ commit_sha: sha(6), kind: 'full', status: 'ingested' });
    expect(heads.main!.commit.message).toBe('commit 6');
    expect(heads['feature/x']).toMatchObject({ commit_sha: sha(100) });
  });

  it('answers as text when asked, and a gateway of an earlier release with the data itself', async () => {
    const ref = { projectId: project.id, target };
    const current = createQueryClient('127.0.0.1', queryPort, TEST_QUERY_SECRET);
    // An earlier gateway signs its messages but does not ask for text answers.
    const earlier = ClientProxyFactory.create({
      transport: Transport.TCP,
      options: { host: '127.0.0.1', port: queryPort },
    });
    earlier.setOnDispatchHook((packet) => {
      packet.metadata = {
        ...packet.metadata,
        auth: signMessage(TEST_QUERY_SECRET, packet.pattern, packet.data),
      };
    });
    try {
      const text = await firstValueFrom(
        current.send<Serialized<HeadsData>>(QueryPatterns.heads, ref),
      );
      const data = await firstValueFrom(earlier.send<HeadsData>(QueryPatterns.heads, ref));
      expect(isSerialized(text)).toBe(true);
      expect(isSerialized(data)).toBe(false);
      expect(data.heads.length).toBe(2);
      expect(JSON.parse(text.json)).toEqual(data);
      expect((await get<HeadsData>('/heads')).body.data).toEqual(data);
    } finally {
      current.close();
      earlier.close();
    }
  });

  it('walks the chain of parents newest first, with kinds, messages and region deltas', async () => {
    const res = await get<CommitPageData>(`/commits/${sha(100)}`);
    expect(res.status).toBe(200);
    const page = res.body.data;
    expect(page.commits.map((c) => c.sha)).toEqual([sha(100), ...[6, 5, 4, 3, 2, 1].map(sha)]);
    expect(page.commits.map((c) => c.kind)).toEqual([
      'full',
      ...[5, 4, 3, 2, 1, 0].map((i) => specs[i]!.kind),
    ]);
    expect(page.chain_summary).toMatchObject({ total_commits: 7, root_sha: sha(1) });
    expect(page.pagination).toEqual({ total_in_chain: 7, has_more: false, count: 50, offset: 0 });
    const c6 = page.commits[1]!;
    expect(c6).toMatchObject({ message: 'commit 6', parent_sha: sha(5), branch: 'main', depth: 1 });
    // Deltas against the nearest older footprint (commit 5, same firmware as 2).
    const now = reports.get(sha(6))!.memory_layout;
    const before = reports.get(sha(5))!.memory_layout;
    for (const r of c6.regions) {
      expect(r.used_size).toBe(now[r.name]!.used_size);
      expect(r.used_change).toBe(now[r.name]!.used_size - before[r.name]!.used_size);
    }
    expect(page.commits.find((c) => c.kind === 'build_failed')!.regions).toEqual([]);
  });

  it('keeps only commits whose footprint changed, and pages through them', async () => {
    const expected = specs
      .slice(0, 6)
      .map((s, i) => {
        const own = footprint(i);
        const older = specs
          .slice(0, i)
          .map((_, j) => footprint(j))
          .filter((r) => r !== null);
        const parent = older.at(-1);
        const changed =
          s.kind === 'build_failed' ||
          (s.kind !== 'identical' && (!parent || used(own!) !== used(parent)));
        return { sha: s.sha, changed };
      })
      .reverse();
    const changed = expected.filter((e) => e.changed).map((e) => e.sha);
    expect(changed.length).toBeGreaterThan(1);
    expect(changed.length).toBeLessThan(6);

    const all = await get<CommitPageData>(`/commits/${sha(6)}?only_changed=true`);
    expect(all.body.data.commits.map((c) => c.sha)).toEqual(changed);
    expect(all.body.data.chain_summary).toMatchObject({
      total_commits: 6,
      changed_commits: changed.length,
    });
    expect(all.body.data.pagination.total_in_chain).toBe(changed.length);

    const first = await get<CommitPageData>(
      `/commits/${sha(6)}?only_changed=true&count=2&offset=0`,
    );
    expect(first.body.data.commits.map((c) => c.sha)).toEqual(changed.slice(0, 2));
    expect(first.body.data.pagination).toMatchObject({ has_more: true, count: 2, offset: 0 });
    const rest = await get<CommitPageData>(`/commits/${sha(6)}?only_changed=true&count=2&offset=2`);
    expect(rest.body.data.commits.map((c) => c.sha)).toEqual(changed.slice(2, 4));
    const beyond = await get<CommitPageData>(`/commits/${sha(6)}?offset=50`);
    expect(beyond.body.data.commits).toEqual([]);
    expect(beyond.body.data.pagination).toMatchObject({ total_in_chain: 6, has_more: false });
  });

  it('serves a memory report with every symbol, its source path and object', async () => {
    const res = await get<CommitReportData>(`/commit/${sha(6)}?include_symbols=true`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    const report = reports.get(sha(6))!;
    expect(data.commit).toMatchObject({
      sha: sha(6),
      message: 'commit 6',
      author_name: 'Synthetic Developer',
    });
    expect(data.report).toMatchObject({
      kind: 'full',
      status: 'ingested',
      ingested_version: 1,
      branch: 'main',
    });
    expect(data.symbols).toHaveLength(report.symbols.length);
    const byName = new Map(report.symbols.map((s) => [s.name, s]));
    for (const s of data.symbols!) {
      const sent = byName.get(s.name)!;
      expect([s.address, s.size, s.section, s.source_file, s.object_file, s.archive]).toEqual([
        sent.address,
        sent.size,
        sent.section,
        sent.source_file,
        sent.object_file,
        sent.archive,
      ]);
    }
    expect(Object.fromEntries(data.regions.map((r) => [r.name, r.used_size]))).toEqual(
      Object.fromEntries(Object.entries(report.memory_layout).map(([n, r]) => [n, r.used_size])),
    );
    expect(data.sections).toHaveLength(
      Object.values(report.memory_layout).flatMap((r) => r.sections).length,
    );

    const bare = await get<CommitReportData>(`/commit/${sha(6)}`);
    expect(bare.body.data.symbols).toBeNull();
    // An identical build serves its parent's symbols under its own commit.
    const identical = await get<CommitReportData>(`/commit/${sha(3)}?include_symbols=true`);
    expect(identical.body.data.report.kind).toBe('identical');
    expect(identical.body.data.symbols).toHaveLength(reports.get(sha(2))!.symbols.length);
    const failed = await get<CommitReportData>(`/commit/${sha(4)}?include_symbols=true`);
    expect(failed.body.data).toMatchObject({
      report: { kind: 'build_failed' },
      regions: [],
      symbols: [],
    });
  });

  it('diffs two builds exactly as the diff engine does on the full reports', async () => {
    for (const [a, b] of [
      [sha(1), sha(6)],
      [sha(2), sha(6)],
      [sha(6), sha(100)],
      [sha(100), sha(1)],
    ] as const) {
      const res = await get<CommitDiffData>(`/commit/${a}/${b}`);
      expect(res.status).toBe(200);
      const expected = diffReports(reports.get(a) ?? reports.get(sha(2))!, reports.get(b)!);
      expect(res.body.data.diff).toEqual(shown(expected));
      expect(res.body.data.base.commit.sha).toBe(a);
      // Totals reconcile: every section's delta is its symbols' plus its padding.
      for (const s of res.body.data.diff.sections)
        expect(s.delta).toBe(s.symbols_delta + s.padding_delta);
    }
    const statuses = new Set(
      (await get<CommitDiffData>(`/commit/${sha(1)}/${sha(6)}`)).body.data.diff.symbols.map(
        (s) => s.status,
      ),
    );
    expect([...statuses].sort()).toEqual(['added', 'modified', 'moved', 'removed']);
  });

  it('lists unchanged symbols too with all_symbols=true', async () => {
    const res = await get<CommitDiffData>(`/commit/${sha(2)}/${sha(6)}?all_symbols=true`);
    const expected = diffReports(reports.get(sha(2))!, reports.get(sha(6))!, {
      includeUnchanged: true,
    });
    expect(res.body.data.all_symbols).toBe(true);
    expect(res.body.data.diff).toEqual(shown(expected));
    expect(res.body.data.diff.symbols.some((s) => s.status === 'unchanged')).toBe(true);
    const same = await get<CommitDiffData>(`/commit/${sha(2)}/${sha(5)}`);
    expect(same.body.data.diff.symbols).toEqual([]);
  });

  it('serves region and section series along a branch and along a chain', async () => {
    const main = await get<RegionSeriesData>('/series/regions?branch=main');
    expect(main.status).toBe(200);
    expect(main.body.data.commits.map((c) => c.sha)).toEqual([1, 2, 3, 4, 5, 6].map(sha));
    expect(main.body.data.commits[0]).toMatchObject({ subject: 'commit 1', kind: 'full' });
    expect(main.body.data.regions.map((r) => r.name)).toEqual(['FLASH', 'RAM']);
    const ram = main.body.data.regions.find((r) => r.name === 'RAM')!;
    expect(ram.used_size).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => footprint(i)?.memory_layout.RAM!.used_size ?? null),
    );
    expect(ram.free_size).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => footprint(i)?.memory_layout.RAM!.free_size ?? null),
    );
    const chain = await get<RegionSeriesData>(`/series/regions?sha=${sha(100)}&limit=3`);
    expect(chain.body.data.commits.map((c) => c.sha)).toEqual([sha(5), sha(6), sha(100)]);
    expect(chain.body.data.truncated).toBe(true);
    const window = await get<RegionSeriesData>(
      `/series/regions?branch=main&from=${specs[1]!.time.toISOString()}&to=${specs[2]!.time.toISOString()}`,
    );
    expect(window.body.data.commits.map((c) => c.sha)).toEqual([sha(2), sha(3)]);
    const chainWindow = await get<RegionSeriesData>(
      `/series/regions?sha=${sha(6)}&from=${specs[1]!.time.toISOString()}&to=${specs[2]!.time.toISOString()}`,
    );
    expect(chainWindow.body.data.commits.map((c) => c.sha)).toEqual([sha(2), sha(3)]);

    const sections = await get<SectionSeriesData>(
      '/series/sections?branch=main&names=.text,RAM/.bss',
    );
    expect(sections.body.data.sections.map((s) => s.key)).toEqual(['FLASH/.text', 'RAM/.bss']);
    const text = sections.body.data.sections[0]!;
    expect(text.size).toEqual(
      [0, 1, 2, 3, 4, 5].map(
        (i) =>
          footprint(i)?.memory_layout.FLASH!.sections.find((s) => s.name === '.text')!.size ?? null,
      ),
    );
  });

  it('tracks one symbol and one source file across commits', async () => {
    // A symbol that grew between commit 2 and 6 (found from the data, not chosen by hand).
    const old = new Map(firmware.get(sha(2))!.map((s) => [s.name, s.size]));
    const grown = firmware
      .get(sha(6))!
      .find((s) => old.has(s.name) && old.get(s.name)! !== s.size)!;
    const res = await get<HistoryData>(
      `/symbols/history?branch=main&name=${encodeURIComponent(grown.name)}`,
    );
    expect(res.status).toBe(200);
    const h = res.body.data;
    // Failed builds have no rows and are left out; identical builds repeat their parent.
    expect(h.shas).toEqual([1, 2, 3, 5, 6].map(sha));
    const sizeAt = (s: string) => firmware.get(s)?.find((x) => x.name === grown.name)?.size ?? 0;
    expect(h.size).toEqual([sha(1), sha(2), sha(2), sha(5), sha(6)].map(sizeAt));
    expect(h.last_change).toMatchObject({
      sha: sha(6),
      size_after: grown.size,
      delta: grown.size - old.get(grown.name)!,
    });

    const added = firmware.get(sha(100))!.at(-1)!;
    const appeared = await get<HistoryData>(
      `/symbols/history?sha=${sha(100)}&name=${encodeURIComponent(added.name)}`,
    );
    expect(appeared.body.data.appeared).toMatchObject({
      sha: sha(100),
      size_before: 0,
      size_after: added.size,
    });

    const file = grown.source_file;
    const fileRes = await get<HistoryData>(
      `/files/history?branch=main&path=${encodeURIComponent(file)}`,
    );
    const fileSize = (s: string) =>
      firmware
        .get(s)!
        .filter((x) => x.source_file === file)
        .reduce((sum, x) => sum + x.size, 0);
    expect(fileRes.body.data.size).toEqual([sha(1), sha(2), sha(2), sha(5), sha(6)].map(fileSize));
  });

  it('groups a report for treemaps by source path and by archive/object', async () => {
    const res = await get<TreeData>(`/commit/${sha(6)}/tree`);
    expect(res.status).toBe(200);
    const tree = res.body.data.tree;
    const symbols = reports.get(sha(6))!.symbols;
    expect(tree.size).toBe(symbols.reduce((sum, s) => sum + s.size, 0));
    expect(tree.symbols).toBe(symbols.length);
    const ram = tree.children!.find((c) => c.name === 'RAM')!;
    const bss = ram.children!.find((c) => c.name === '.bss')!;
    expect(bss.size).toBe(
      symbols.filter((s) => s.section === '.bss').reduce((sum, s) => sum + s.size, 0),
    );
    expect(bss.children!.map((c) => c.kind)).toContain('directory');

    const objects = await get<TreeData>(
      `/commit/${sha(6)}/tree?group_by=object&include_symbols=false`,
    );
    const text = objects.body.data.tree
      .children!.find((c) => c.name === 'FLASH')!
      .children!.find((c) => c.name === '.text')!;
    expect(text.children!.map((c) => c.name)).toContain('libc.a');
    const libc = text.children!.find((c) => c.name === 'libc.a')!;
    expect(libc.children!.every((c) => c.kind === 'object' && c.children === undefined)).toBe(true);
  });

  it('ranks growers and shrinkers between commits and over a time window', async () => {
    const res = await get<GrowersData>(`/growers?base=${sha(1)}&head=${sha(6)}&limit=3`);
    expect(res.status).toBe(200);
    const diff = diffReports(reports.get(sha(1))!, reports.get(sha(6))!);
    const deltas = diff.symbols.map((s) => s.delta);
    expect(res.body.data.growers[0]!.delta).toBe(Math.max(...deltas));
    expect(res.body.data.shrinkers[0]!.delta).toBe(Math.min(...deltas));
    expect(res.body.data.net_delta).toBe(deltas.reduce((a, b) => a + b, 0));

    const files = await get<GrowersData>(
      `/growers?branch=main&from=${specs[0]!.time.toISOString()}&to=${specs[5]!.time.toISOString()}&by=file`,
    );
    expect(files.body.data).toMatchObject({
      by: 'file',
      base: { sha: sha(1) },
      head: { sha: sha(6) },
    });
    const total = (s: string) => reports.get(s)!.symbols.reduce((sum, x) => sum + x.size, 0);
    expect(files.body.data.net_delta).toBe(total(sha(6)) - total(sha(1)));
  });

  it('exports a report and a diff as CSV and JSON', async () => {
    const csv = await fetch(
      `${gw.url}/api/${project.id}/${target}/commit/${sha(6)}/export?format=csv`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toContain(`${target}-${sha(6)}.csv`);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'name,full_name,address,size,type,binding,section,region,source_file,source_line,archive,object_file',
    );
    expect(lines).toHaveLength(reports.get(sha(6))!.symbols.length + 1);

    const diffCsv = await fetch(
      `${gw.url}/api/${project.id}/${target}/commit/${sha(1)}/${sha(6)}/export?format=csv`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    const diffLines = (await diffCsv.text()).trimEnd().split('\r\n');
    expect(diffLines).toHaveLength(
      diffReports(reports.get(sha(1))!, reports.get(sha(6))!).symbols.length + 1,
    );

    const json = await fetch(
      `${gw.url}/api/${project.id}/${target}/commit/${sha(1)}/${sha(6)}/export`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as CommitDiffData).diff).toEqual(
      shown(diffReports(reports.get(sha(1))!, reports.get(sha(6))!)),
    );
  });

  it('answers 404 for non-members, unknown targets and unknown commits', async () => {
    const paths = [
      '/heads',
      `/commits/${sha(6)}`,
      `/commit/${sha(6)}?include_symbols=true`,
      `/commit/${sha(1)}/${sha(6)}`,
      `/commit/${sha(6)}/tree`,
      `/commit/${sha(6)}/export?format=csv`,
      '/series/regions?branch=main',
      '/series/sections?branch=main',
      '/symbols/history?branch=main&name=x',
      '/files/history?branch=main&path=x',
      `/growers?base=${sha(1)}&head=${sha(6)}`,
    ];
    for (const path of paths) {
      const res = await get(path, strangerToken);
      expect([path, res.status, res.body.type]).toEqual([path, 404, 'NotFoundError']);
      expect(res.body.error).toBe(`Project ${project.id} not found`);
    }
    const other = await call<Body<null>>(gw.url, 'GET', `/api/${project.id}/nope/heads`, { token });
    expect([other.status, other.body.error]).toEqual([404, 'Target nope not found']);
    const unknown = 'abcdef0123456789';
    for (const path of [
      `/commits/${unknown}`,
      `/commit/${unknown}`,
      `/commit/${sha(1)}/${unknown}`,
      `/series/regions?sha=${unknown}`,
      '/series/regions?branch=no-such-branch',
    ]) {
      const res = await get(path);
      expect([path, res.status, res.body.type, res.body.data]).toEqual([
        path,
        404,
        'NotFoundError',
        null,
      ]);
    }
    const res = await get(`/commit/${unknown}`);
    expect(res.body.error).toBe(`Commit ${unknown} has no report for target ${target}`);
    expect((await call(gw.url, 'GET', `/api/${project.id}/${target}/heads`)).status).toBe(401);
  });

  it('answers 400 naming the bad parameter', async () => {
    const cases: [string, string][] = [
      [`/commits/${sha(6)}?count=0`, 'count must be an integer from 1 to 500, got "0"'],
      [`/commits/${sha(6)}?count=ten`, 'count must be an integer from 1 to 500, got "ten"'],
      [`/commits/${sha(6)}?offset=-1`, 'offset must be an integer from 0 to 1000000, got "-1"'],
      [`/commits/${sha(6)}?only_changed=maybe`, 'only_changed must be true or false, got "maybe"'],
      ['/commits/not-a-sha', 'sha must be a hexadecimal commit SHA (4-64 digits), got "not-a-sha"'],
      [`/commit/${sha(1)}/zz`, 'shaB must be a hexadecimal commit SHA (4-64 digits), got "zz"'],
      [`/commit/${sha(1)}?include_symbols=yes`, 'include_symbols must be true or false, got "yes"'],
      [
        `/commit/${sha(1)}/tree?group_by=size`,
        'group_by must be one of source, object, got "size"',
      ],
      [`/commit/${sha(1)}/export?format=xml`, 'format must be one of json, csv, got "xml"'],
      [
        '/series/regions',
        'Give exactly one of branch (reports of a branch) or sha (the chain of parents from a commit)',
      ],
      [
        `/series/regions?branch=main&sha=${sha(1)}`,
        'Give exactly one of branch (reports of a branch) or sha (the chain of parents from a commit)',
      ],
      [
        '/series/regions?branch=main&from=yesterday',
        'from must be an ISO 8601 date or time, got "yesterday"',
      ],
      ['/series/regions?branch=main&from=2026-02-01&to=2026-01-01', 'from must not be after to'],
      ['/series/regions?branch=main&limit=0', 'limit must be an integer from 1 to 20000, got "0"'],
      ['/symbols/history?branch=main', 'name is required'],
      ['/files/history?branch=main&path=', 'path must not be empty'],
      ['/growers', 'Give base and head commits, or a branch with an optional from/to window'],
      [
        `/growers?base=${sha(1)}&head=${sha(6)}&by=dir`,
        'by must be one of symbol, file, got "dir"',
      ],
      [`/commits/${sha(6)}?count=1&count=2`, 'count must be given once'],
    ];
    for (const [path, message] of cases) {
      const res = await get(path);
      expect([path, res.status, res.body]).toEqual([
        path,
        400,
        { status: 'error', type: 'BadRequestError', error: message, data: null },
      ]);
    }
  });

  it('keeps serving the ingested version while an overwrite is pending, then the new one', async () => {
    await worker!.close();
    worker = undefined;
    const before = reports.get(sha(6))!;
    const rnd = seededRandom(99);
    let id = 50_000;
    const replaced = evolve(
      firmware.get(sha(6))!,
      { grow: 2, shrink: 0, add: 4, remove: 0, rename: 0, move: 0 },
      rnd,
      () => id++,
    );
    await upload(specs[5]!, replaced);
    const during = await get<CommitReportData>(`/commit/${sha(6)}?include_symbols=true`);
    expect(during.body.data.report).toMatchObject({
      status: 'pending',
      ingested_version: 1,
      overwrite_count: 1,
    });
    expect(during.body.data.symbols).toHaveLength(before.symbols.length);
    // Chains and series see the new upload at once (the cached timeline is re-read).
    const pageDuring = await get<CommitPageData>(`/commits/${sha(6)}?count=1`);
    expect(pageDuring.body.data.commits[0]).toMatchObject({ sha: sha(6), status: 'pending' });
    const replacedReport = toReport(replaced);
    expect(pageDuring.body.data.commits[0]!.regions.find((r) => r.name === 'RAM')!.used_size).toBe(
      replacedReport.memory_layout.RAM!.used_size,
    );
    const diffDuring = await get<CommitDiffData>(`/commit/${sha(1)}/${sha(6)}`);
    expect(diffDuring.body.data.diff).toEqual(shown(diffReports(reports.get(sha(1))!, before)));

    await startWorker();
    await allIngested();
    const after = await get<CommitReportData>(`/commit/${sha(6)}?include_symbols=true`);
    expect(after.body.data.report).toMatchObject({ status: 'ingested', ingested_version: 2 });
    expect(after.body.data.symbols).toHaveLength(replaced.length);
    const pageAfter = await get<CommitPageData>(`/commits/${sha(6)}?count=1`);
    expect(pageAfter.body.data.commits[0]).toMatchObject({ status: 'ingested' });
    const diffAfter = await get<CommitDiffData>(`/commit/${sha(1)}/${sha(6)}`);
    expect(diffAfter.body.data.diff).toEqual(
      shown(diffReports(reports.get(sha(1))!, toReport(replaced))),
    );
    const history = await get<HistoryData>(
      `/symbols/history?branch=main&name=${encodeURIComponent(replaced.at(-1)!.name)}`,
    );
    expect(history.body.data.appeared).toMatchObject({
      sha: sha(6),
      size_after: replaced.at(-1)!.size,
    });
  });

  it('serves a first upload that is not ingested yet from its stored totals, and says so', async () => {
    await worker!.close();
    worker = undefined;
    const fw = initialFirmware(30, 5);
    const spec: CommitSpec = {
      sha: shaOf('pending', 1),
      parent: sha(6),
      branch: 'main',
      target,
      time: new Date(Date.UTC(2026, 10, 1)),
      message: 'not ingested yet',
      kind: 'full',
    };
    await upload(spec, fw);
    const res = await get<CommitReportData>(`/commit/${spec.sha}?include_symbols=true`);
    expect(res.status).toBe(200);
    expect(res.body.data.report).toMatchObject({ status: 'pending', ingested_version: null });
    expect(res.body.data.symbols).toBeNull();
    const sent = toReport(fw).memory_layout;
    expect(Object.fromEntries(res.body.data.regions.map((r) => [r.name, r.used_size]))).toEqual(
      Object.fromEntries(Object.entries(sent).map(([n, r]) => [n, r.used_size])),
    );
    const diff = await get<null>(`/commit/${sha(6)}/${spec.sha}`);
    expect([diff.status, diff.body.error]).toEqual([
      400,
      `Commit ${spec.sha} of target ${target} is still being ingested; try again shortly`,
    ]);
    await startWorker();
    await allIngested();
    const later = await get<CommitDiffData>(`/commit/${sha(6)}/${spec.sha}`);
    expect(later.status).toBe(200);
  });

  it('stops a chain whose parent links loop back instead of walking forever', async () => {
    const loop = (i: number, parent: number): CommitSpec => ({
      sha: shaOf('loop', i),
      parent: shaOf('loop', parent),
      branch: 'main',
      target: 'looped',
      time: new Date(Date.UTC(2026, 9, 1, i)),
      message: `loop ${i}`,
      kind: 'full',
    });
    const fw = initialFirmware(20, 3);
    for (const spec of [loop(1, 2), loop(2, 1)]) {
      const res = await call(gw.url, 'POST', '/upload', {
        body: envelope(spec, toReport(fw)),
        headers: { authorization: `Bearer ${project.api_key}` },
      });
      expect(res.status).toBe(200);
    }
    const res = await call<Body<CommitPageData>>(
      gw.url,
      'GET',
      `/api/${project.id}/looped/commits/${shaOf('loop', 2)}`,
      { token },
    );
    expect(res.body.data.commits.map((c) => c.sha)).toEqual([shaOf('loop', 2), shaOf('loop', 1)]);
    expect(res.body.data.chain_summary).toMatchObject({
      total_commits: 2,
      root_sha: shaOf('loop', 1),
    });
  });

  it('answers 503 rather than an empty result when the query service is down', async () => {
    await query!.close();
    query = undefined;
    const res = await get<null>('/heads');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      status: 'error',
      type: 'ServiceUnavailableError',
      data: null,
    });
  });
});
