/**
 * `npm run seed:scale`: builds a benchmark dataset through the real ingestion path — uploads to
 * a running gateway (`npm run up`, MEMTRAIL_URL, default http://localhost:5000) with a project
 * API key, gzip bodies, several uploads in flight — then waits until the worker has ingested
 * everything. Resumable and idempotent: progress is kept in SEED_STATE
 * (.data/bench/query-seed.json), so a re-run uploads only what is missing.
 *
 * Targets (sizes from the environment):
 * - `scale-history`: SEED_COMMITS (5000) commits of SEED_HISTORY_SYMBOLS (40000) symbols —
 *   chains, series, symbol history over thousands of commits, diffs and full reports;
 * - `scale-small`: SEED_SMALL_COMMITS (500) commits of 500 symbols — a second board.
 * Each commit changes a few symbols (grow 3, shrink 2, add 1, remove 1); 10% are identical
 * builds, 1% failed builds.
 */
import { gzipSync } from 'node:zlib';
import { seededRandom } from '@memtrail/testing/random';
import {
  api,
  CORE_URL,
  readState,
  signIn,
  stackDatabase,
  STATE_FILE,
  writeState,
  type SeedState,
  type SeedTarget,
} from './session.js';
import {
  envelope,
  evolve,
  initialFirmware,
  shaOf,
  toReport,
  TYPICAL_CHURN,
  type CommitSpec,
  type SyntheticSymbol,
} from './synthetic-firmware.js';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
};

const CONCURRENCY = env('SEED_CONCURRENCY', 4);
const START = Date.parse('2025-01-01T00:00:00Z');

function plannedTargets(): SeedTarget[] {
  return [
    {
      name: 'scale-history',
      commits: env('SEED_COMMITS', 5000),
      symbols: env('SEED_HISTORY_SYMBOLS', 40000),
      seed: 11,
    },
    { name: 'scale-small', commits: env('SEED_SMALL_COMMITS', 500), symbols: 500, seed: 13 },
  ].map((t) => ({ ...t, uploaded: 0, head: null }));
}

async function setUp(): Promise<SeedState> {
  const existing = readState();
  if (existing) {
    const token = await signIn(existing);
    writeState(existing);
    const project = await api('GET', `/api/${existing.projectId}/targets`, { token });
    if (project.status === 200) {
      // Grow the plan when sizes were raised; never shrink what is already there.
      for (const planned of plannedTargets()) {
        const t = existing.targets.find((x) => x.name === planned.name);
        if (!t) existing.targets.push(planned);
        else if (planned.commits > t.commits) t.commits = planned.commits;
      }
      return existing;
    }
    console.log(`project ${existing.projectId} is gone (${project.status}); seeding a new one`);
  }
  const email = process.env.SEED_EMAIL ?? 'bench@memtrail.local';
  const password = process.env.SEED_PASSWORD ?? 'Bench!Passw0rd';
  const session: Pick<SeedState, 'email' | 'password' | 'token' | 'tokenAt'> = { email, password };
  const token = await signIn(session);
  const created = await api<{ project: { id: string; api_key: string } }>('POST', '/api/projects', {
    token,
    body: { name: 'Scale benchmark', description: 'Synthetic history for npm run bench:query' },
  });
  if (created.status !== 201 && created.status !== 200) {
    throw new Error(
      `creating the project failed: ${created.status} ${JSON.stringify(created.body)}`,
    );
  }
  const state: SeedState = {
    ...session,
    projectId: created.body.data.project.id,
    apiKey: created.body.data.project.api_key,
    targets: plannedTargets(),
  };
  writeState(state);
  return state;
}

/** Commit i of a target: its spec and, for full builds, its firmware (replayed from the seed). */
function* history(
  t: SeedTarget,
): Generator<{ spec: CommitSpec; firmware: SyntheticSymbol[] | null }> {
  const rnd = seededRandom(t.seed);
  let nextId = t.symbols;
  let fw = initialFirmware(t.symbols, t.seed);
  for (let i = 0; i < t.commits; i++) {
    const roll = i === 0 ? 1 : rnd();
    const kind: CommitSpec['kind'] =
      roll < 0.01 ? 'build_failed' : roll < 0.11 ? 'identical' : 'full';
    if (i > 0 && kind === 'full') fw = evolve(fw, TYPICAL_CHURN, rnd, () => nextId++);
    yield {
      spec: {
        sha: shaOf(t.name, i),
        parent: i === 0 ? null : shaOf(t.name, i - 1),
        branch: 'main',
        target: t.name,
        time: new Date(START + i * 600_000),
        message: `${t.name}: change ${i}`,
        kind,
      },
      firmware: kind === 'full' ? fw : null,
    };
  }
}

async function upload(
  apiKey: string,
  spec: CommitSpec,
  fw: SyntheticSymbol[] | null,
): Promise<void> {
  const body = gzipSync(JSON.stringify(envelope(spec, fw ? toReport(fw) : null)), { level: 1 });
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${CORE_URL}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      body,
    });
    if (res.ok) return;
    const text = await res.text();
    // The per-key upload limit (429) and a busy gateway are waited out.
    if ((res.status === 429 || res.status >= 500) && attempt < 20) {
      await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * attempt)));
      continue;
    }
    throw new Error(`upload of ${spec.target}@${spec.sha} failed: ${res.status} ${text}`);
  }
}

async function seedTarget(state: SeedState, t: SeedTarget): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  const done = new Map<string, Promise<void>>();
  let uploaded = 0;
  const fullBuilds: number[] = [];
  for (const { spec, firmware } of history(t)) {
    const index = Number.parseInt(spec.sha.slice(8), 16);
    if (spec.kind === 'full') fullBuilds.push(index);
    if (index < t.uploaded) continue;
    while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    // An identical build's parent must be stored before it (its footprint is the parent's).
    const parent = spec.kind === 'identical' && spec.parent ? done.get(spec.parent) : undefined;
    const job = (async () => {
      await parent;
      await upload(state.apiKey, spec, firmware);
    })();
    done.set(spec.sha, job);
    if (done.size > 4 * CONCURRENCY) done.delete(done.keys().next().value!);
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
    uploaded++;
    if (uploaded % 100 === 0) {
      await Promise.all(inFlight);
      t.uploaded = index + 1;
      t.head = spec.sha;
      writeState(state);
      console.log(`${t.name}: ${t.uploaded}/${t.commits} uploaded`);
    }
  }
  await Promise.all(inFlight);
  t.uploaded = t.commits;
  t.head = shaOf(t.name, t.commits - 1);
  t.fullBuilds = fullBuilds;
  writeState(state);
  return uploaded;
}

/** Polls the stack's Postgres until no report of the project is pending. */
async function waitForIngestion(state: SeedState): Promise<void> {
  const client = await stackDatabase();
  try {
    for (let last = -1; ;) {
      const { rows } = await client.query<{ pending: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE r.status = 'pending')::int AS pending,
                count(*) FILTER (WHERE r.status = 'failed')::int AS failed
         FROM reports r JOIN targets t ON t.id = r.target_id WHERE t.project_id = $1`,
        [state.projectId],
      );
      const { pending, failed } = rows[0]!;
      if (failed > 0) throw new Error(`${failed} reports failed to ingest; see the worker log`);
      if (pending === 0) return;
      if (pending !== last) console.log(`waiting for the worker: ${pending} reports pending`);
      last = pending;
      await new Promise((r) => setTimeout(r, 2000));
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const state = await setUp();
  let total = 0;
  for (const t of state.targets) {
    if (t.uploaded >= t.commits) continue;
    const t0 = performance.now();
    const n = await seedTarget(state, t);
    total += n;
    const s = (performance.now() - t0) / 1000;
    console.log(
      `${t.name}: ${n} uploads (${t.symbols} symbols per full build) in ${s.toFixed(1)} s`,
    );
  }
  const ingest0 = performance.now();
  await waitForIngestion(state);
  console.log(
    `ingestion drained ${((performance.now() - ingest0) / 1000).toFixed(1)} s after the last upload`,
  );
  const s = (performance.now() - started) / 1000;
  console.log(`seeded ${total} new commits in ${s.toFixed(1)} s; state in ${STATE_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
