/**
 * `npm run bench:query`: the reads of docs/benchmarks.md, timed through the gateway over HTTP
 * (MEMTRAIL_URL, default http://localhost:5000) on the dataset of `npm run seed:scale`.
 * Each read runs BENCH_WARMUP (3) times untimed, then BENCH_RUNS (30) times one after another;
 * the table gives the first call, p50, p95 and max of the wall time of the whole HTTP call.
 * A read over many names calls each name once, without warm-up (no name is asked twice).
 * BENCH_ONLY (text in a read's name) runs only the matching reads.
 */
import {
  api,
  CORE_URL,
  readState,
  signIn,
  STATE_FILE,
  writeState,
  type SeedState,
} from './session.js';
import { initialFirmware } from './synthetic-firmware.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ONLY = process.env.BENCH_ONLY ?? '';

interface Case {
  name: string;
  target: string;
  /** A function: each call asks for another name, the path of call i (no warm-up). */
  path: string | ((i: number) => string);
  goal?: number;
  /** Checks the answer really is the big one the case claims (no silent empty results). */
  check: (data: unknown) => string;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(
  token: string,
  url: string,
): Promise<{ ms: number; data: unknown; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, data: (JSON.parse(text) as { data: unknown }).data, bytes: text.length };
}

function cases(state: SeedState): Case[] {
  const history = state.targets.find((t) => t.name === 'scale-history')!;
  if (!history.fullBuilds)
    throw new Error('the seed state lists no full builds: run seed:scale again');
  const sha = (name: string, i: number) => {
    let h = 0x811c9dc5;
    for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    return `${h.toString(16).padStart(8, '0')}${i.toString(16).padStart(32, '0')}`;
  };
  // A symbol of the first build (churn may remove it later: its history has gaps).
  const firmware = initialFirmware(history.symbols, history.seed);
  const tracked = firmware[1]!.name;
  const n = history.uploaded;
  const full = history.fullBuilds;
  const [last, previous] = [full.at(-1)!, full.at(-2)!];
  const distant = full.at(-40)!;
  const symbols = history.symbols.toLocaleString('en');
  const list = (key: string) => (d: unknown) =>
    `${((d as Record<string, unknown[]>)[key] ?? []).length} ${key}`;
  const presence = (d: unknown) => {
    const present = (d as { present: boolean[] }).present;
    return `present in ${present.filter(Boolean).length} of ${present.length} commits`;
  };
  const changed = (d: unknown) =>
    `${(d as { diff: { symbols: unknown[] } }).diff.symbols.length} changed symbols`;
  return [
    {
      name: `Diff of two ${symbols}-symbol builds, consecutive full builds`,
      target: history.name,
      path: `/commit/${sha(history.name, previous)}/${sha(history.name, last)}`,
      goal: 100,
      check: changed,
    },
    {
      name: `Diff of two ${symbols}-symbol builds, ${last - distant} commits apart`,
      target: history.name,
      path: `/commit/${sha(history.name, distant)}/${sha(history.name, last)}`,
      goal: 100,
      check: changed,
    },
    {
      name: `Region series over ${n.toLocaleString('en')} commits (branch)`,
      target: history.name,
      path: `/series/regions?branch=main&limit=${n}`,
      goal: 100,
      check: list('commits'),
    },
    {
      name: `Region series over ${n.toLocaleString('en')} commits (chain of parents)`,
      target: history.name,
      path: `/series/regions?sha=${sha(history.name, n - 1)}&limit=${n}`,
      goal: 100,
      check: list('commits'),
    },
    {
      name: `Commit page of 50, only_changed, chain of ${n.toLocaleString('en')}`,
      target: history.name,
      path: `/commits/${sha(history.name, n - 1)}?count=50&offset=0&only_changed=true`,
      goal: 30,
      check: (d) => {
        const page = d as { commits: unknown[]; chain_summary: { total_commits: number } };
        return `${page.commits.length} of ${page.chain_summary.total_commits} commits`;
      },
    },
    {
      name: `Symbol history over ${n.toLocaleString('en')} commits`,
      target: history.name,
      path: `/symbols/history?branch=main&limit=${n}&name=${encodeURIComponent(tracked)}`,
      goal: 50,
      check: presence,
    },
    {
      name: `Symbol history over ${n.toLocaleString('en')} commits, ${RUNS} names asked once each`,
      target: history.name,
      path: (i) =>
        `/symbols/history?branch=main&limit=${n}&name=${encodeURIComponent(firmware[2 + i]!.name)}`,
      goal: 50,
      check: presence,
    },
    {
      // The floor: the same reads with no block to count.
      name: `Symbol history over ${n.toLocaleString('en')} commits, a name no build has`,
      target: history.name,
      path: `/symbols/history?branch=main&limit=${n}&name=no_such_symbol`,
      goal: 50,
      check: presence,
    },
    {
      name: `File history over ${n.toLocaleString('en')} commits`,
      target: history.name,
      path: `/files/history?branch=main&limit=${n}&path=${encodeURIComponent('src/module_1/file_1.c')}`,
      check: presence,
    },
    {
      name: `Memory report with all ${symbols} symbols`,
      target: history.name,
      path: `/commit/${sha(history.name, last)}?include_symbols=true`,
      goal: 300,
      check: list('symbols'),
    },
    {
      name: `Top growers by file, ${last - distant} commits apart`,
      target: history.name,
      path: `/growers?base=${sha(history.name, distant)}&head=${sha(history.name, last)}&by=file`,
      check: list('growers'),
    },
  ];
}

async function main(): Promise<void> {
  const state = readState();
  if (!state) throw new Error(`no seed state at ${STATE_FILE}: run \`npm run seed:scale\` first`);
  const token = await signIn(state);
  writeState(state);
  const probe = await api('GET', `/api/${state.projectId}/scale-history/heads`, { token });
  if (probe.status !== 200) {
    throw new Error(
      `${CORE_URL} does not serve the query reads (${probe.status}); restart the stack with \`npm run up\``,
    );
  }
  console.log(`Through ${CORE_URL}; ${RUNS} runs after ${WARMUP} warm-up runs per read.\n`);
  console.log('| Read | Answer | first call | p50 | p95 | max | Target |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const c of cases(state).filter((c) => c.name.includes(ONLY))) {
    const url = (path: string) => `${CORE_URL}/api/${state.projectId}/${c.target}${path}`;
    const { path } = c;
    const fresh = typeof path === 'function';
    const at = (i: number) => url(fresh ? path(i) : path);
    // The first call may load the target's timeline into the query service (docs/query.md).
    let last = await time(token, at(0));
    const first = last.ms;
    const times: number[] = fresh ? [first] : [];
    for (let i = 1; i < WARMUP && !fresh; i++) last = await time(token, at(0));
    for (let i = times.length; i < RUNS; i++) times.push((last = await time(token, at(i))).ms);
    times.sort((a, b) => a - b);
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const kb = `${Math.round(last.bytes / 1024).toLocaleString('en')} KiB`;
    console.log(
      `| ${c.name} | ${c.check(last.data)}, ${kb} | ${f(first)} | ${f(percentile(times, 50))} | ${f(percentile(times, 95))} | ${f(times.at(-1)!)} | ${c.goal ? `≤ ${c.goal} ms` : '—'} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
