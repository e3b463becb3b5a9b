#!/usr/bin/env node
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readStackEnv } from '../env-file.js';
import { withLock } from '../lock.js';
import { repoRoot } from '../paths.js';
import { stackPorts } from '../ports.js';
import { which } from '../system.js';
import type { MemoryReport } from '@memtrail/contracts';
import { buildBoardFirmware, toolchainOf, type BoardArch } from './board/build.js';
import { BOARD_COMMITS, BUDGET_BREAKING_STEP } from './board/history.js';
import { buildDemoFirmware } from './firmware.js';
import { boardCommitSha, DEMO, DEMO_BOARD, DEMO_COMMITS, demoCommitSha } from './history.js';

/**
 * `npm run seed` (run by `npm run up` once the services answer): a demo account owning a demo
 * project with real histories — firmware compiled by the cross compilers, analysed and uploaded
 * by our CLI — so a first visit shows populated dashboards, diffs and treemaps: a Cortex-M4
 * sensor node (twelve commits), and an RTOS board over twelve years (Cortex-M4 with LTO, its
 * regions renamed half-way, a function cloned by GCC for some years, a flash budget broken by
 * one commit) with a RISC-V build of its later commits.
 * Idempotent: once the demo project has every report it only prints the credentials.
 * `npm run seed -- --reset` deletes the demo project first and uploads the history again, for
 * when the demo firmware changed since this stack was seeded. Seeds run one at a time.
 */

const env = { ...readStackEnv(), ...process.env };
const reset = process.argv.includes('--reset');
const api = `http://127.0.0.1:${stackPorts.gateway}`;

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: T }> {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** Reports each demo target has once seeded. */
const EXPECTED_REPORTS: Record<string, number> = {
  [DEMO.target]: DEMO_COMMITS.length,
  [DEMO_BOARD.target]: BOARD_COMMITS.length,
  [DEMO_BOARD.riscvTarget]: BOARD_COMMITS.length - DEMO_BOARD.riscvFrom,
};

async function seeded(db: pg.Client): Promise<boolean> {
  const { rows } = await db.query<{ name: string; reports: number }>(
    `SELECT t.name, count(r.id)::int AS reports FROM users u
       JOIN projects p ON p.owner_id = u.id AND p.name = $2
       JOIN targets t ON t.project_id = p.id
       JOIN reports r ON r.target_id = t.id
     WHERE u.email = $1 GROUP BY t.name`,
    [DEMO.email, DEMO.project],
  );
  const found = new Map(rows.map((row) => [row.name, row.reports]));
  return Object.entries(EXPECTED_REPORTS).every(([name, n]) => (found.get(name) ?? 0) >= n);
}

/**
 * Deletes the demo account's demo projects (a reset, or one a failed seed left half uploaded)
 * through the API, so their reports go as a user's would.
 */
async function deleteDemoProjects(db: pg.Client, token: string): Promise<void> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT p.id::text AS id FROM users u JOIN projects p ON p.owner_id = u.id AND p.name = $2
     WHERE u.email = $1`,
    [DEMO.email, DEMO.project],
  );
  for (const { id } of rows) {
    const deleted = await call<{ error?: string }>(
      'DELETE',
      `/api/projects/${id}`,
      undefined,
      token,
    );
    if (deleted.status !== 200)
      throw new Error(`demo project ${id} not deleted: ${deleted.json.error ?? deleted.status}`);
    console.log(`Deleted the demo project ${id}`);
  }
}

async function signIn(db: pg.Client): Promise<string> {
  await call('POST', '/auth/signup', {
    email: DEMO.email,
    password: DEMO.password,
    full_name: 'Demo Engineer',
  });
  // The demo account needs no mailbox: it is confirmed here rather than by the mailed link.
  await db.query(
    'UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, now()) WHERE email = $1',
    [DEMO.email],
  );
  const login = await call<{ data?: { access_token?: string }; error?: string }>(
    'POST',
    '/auth/login',
    {
      email: DEMO.email,
      password: DEMO.password,
    },
  );
  if (!login.json.data?.access_token)
    throw new Error(`demo sign-in failed: ${login.json.error ?? login.status}`);
  return login.json.data.access_token;
}

/** Uploading the history takes about a minute; a second seed waits for the first to finish. */
const SEED_LOCK_TIMEOUT_MS = 10 * 60_000;

async function main(): Promise<void> {
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run npm run up');
  // One seed at a time: a seed (a second `npm run up`) that ran while another was uploading
  // would not find the finished demo project and create a second one.
  await withLock('seed', () => seed(env.DATABASE_URL!), SEED_LOCK_TIMEOUT_MS);
}

async function seed(databaseUrl: string): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    if (reset || !(await seeded(db))) {
      const missing = [toolchainOf('cortex-m4'), toolchainOf('rv32imac')].filter(
        (cc) => !which(cc),
      );
      if (missing.length) {
        console.log(
          `Demo data skipped: ${missing.join(' and ')} not installed (apt-get install gcc-arm-none-eabi gcc-riscv64-unknown-elf)`,
        );
        return;
      }
      const token = await signIn(db);
      await deleteDemoProjects(db, token);
      const created = await call<{
        data?: { project?: { id?: string; api_key?: string } };
        error?: string;
      }>(
        'POST',
        '/api/projects',
        {
          name: DEMO.project,
          description:
            'A Cortex-M4 sensor node and an RTOS board (Cortex-M4 and RISC-V), built and uploaded by the memtrail CLI',
        },
        token,
      );
      const project = created.json.data?.project;
      if (!project?.api_key || !project.id)
        throw new Error(`demo project not created: ${created.json.error ?? created.status}`);
      await uploadHistory(project.api_key);
      await uploadBoard(project.api_key, (method, path, body) =>
        call(
          method,
          `/api/${project.id}/${encodeURIComponent(DEMO_BOARD.target)}${path}`,
          body,
          token,
        ),
      );
    }
    console.log(`Demo account: ${DEMO.email} / ${DEMO.password} (project "${DEMO.project}")`);
  } finally {
    await db.end();
  }
}

const run = promisify(execFile);

/**
 * Runs the memtrail CLI as CI would and resolves to what it printed. Asynchronously: a blocked
 * event loop would miss the gateway closing idle connections, and the next request would fail.
 */
async function memtrail(args: string[], apiKey: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [join(repoRoot, 'packages/cli/dist/bin.js'), ...args],
    { env: { ...process.env, MEMTRAIL_API_KEY: apiKey }, maxBuffer: 256 * 1024 * 1024 },
  );
  return stdout;
}

/** The CLI's git flags for one commit of the main branch. */
function commitFlags(sha: string, parent: string | null, message: string, at: Date): string[] {
  return [
    '--no-git',
    '--commit-sha',
    sha,
    '--base-sha',
    parent ?? 'none',
    '--branch-name',
    DEMO.branch,
    '--commit-message',
    message,
    '--commit-timestamp',
    at.toISOString(),
    '--author-name',
    'Demo Engineer',
    '--author-email',
    DEMO.email,
  ];
}

/** Each commit's firmware is compiled, then analysed and uploaded by the CLI as CI would. */
async function uploadHistory(apiKey: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-demo-'));
  try {
    for (const [step, message] of DEMO_COMMITS.entries()) {
      const build = buildDemoFirmware(dir, step);
      await memtrail(
        [
          'report',
          build.elf,
          build.script,
          '--map-file',
          build.map,
          '--upload',
          '--target-name',
          DEMO.target,
          '--api-url',
          api,
          ...commitFlags(
            demoCommitSha(step),
            step === 0 ? null : demoCommitSha(step - 1),
            message,
            new Date(Date.UTC(2026, 10, 1 + step, 9)),
          ),
        ],
        apiKey,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type TargetCall = (
  method: string,
  path: string,
  body: unknown,
) => Promise<{ status: number; json: unknown }>;

/**
 * The RTOS board's history: every commit's Cortex-M4 build (and RISC-V build, once ported) is
 * compiled in a checkout folder of its own, as CI runners' workspaces differ, and analysed by
 * the CLI. After the first upload the board gets its region configuration (the renamed regions
 * merged, display names) and a flash budget that only the commit with the full sine table breaks
 * (set from the builds' own sizes); then the rest is uploaded.
 */
async function uploadBoard(apiKey: string, target: TargetCall): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-board-'));
  try {
    const analyse = async (arch: BoardArch, step: number): Promise<string> => {
      const build = await buildBoardFirmware({
        arch,
        step,
        dir,
        checkout: `${arch}-runner-${(step % 3) + 1}-${step}/rtos`,
        lto: arch === 'cortex-m4',
      });
      const file = join(dir, `${arch}-${step}.json`);
      writeFileSync(
        file,
        await memtrail(
          ['report', build.elf, build.script, '--map-file', build.map, '--json'],
          apiKey,
        ),
      );
      return file;
    };
    const arm: string[] = [];
    for (const step of BOARD_COMMITS.keys()) arm.push(await analyse('cortex-m4', step));
    const flashUsed = arm.map((file) => {
      const layout = (JSON.parse(readFileSync(file, 'utf8')) as MemoryReport).memory_layout;
      return (layout.flash0 ?? layout.flash)!.used_size;
    });
    const others = flashUsed.filter((_, step) => step !== BUDGET_BREAKING_STEP);
    const limit = (Math.ceil(Math.max(...others) / 4096) + 1) * 4096;
    if (flashUsed[BUDGET_BREAKING_STEP]! <= limit)
      throw new Error(
        `the sine-table commit (${flashUsed[BUDGET_BREAKING_STEP]} B) does not break a ${limit} B budget`,
      );

    const upload = (file: string, name: string, step: number) =>
      memtrail(
        [
          'report',
          '--from-json',
          file,
          '--upload',
          '--dont-fail-on-alerts',
          '--target-name',
          name,
          '--api-url',
          api,
          ...commitFlags(
            boardCommitSha(step),
            step === 0 ? null : boardCommitSha(step - 1),
            BOARD_COMMITS[step]!.message,
            new Date(`${BOARD_COMMITS[step]!.at}T10:00:00Z`),
          ),
        ],
        apiKey,
      );
    for (const [step, file] of arm.entries()) {
      await upload(file, DEMO_BOARD.target, step);
      if (step === 0) await configureBoard(target, limit);
      if (step >= DEMO_BOARD.riscvFrom)
        await upload(await analyse('rv32imac', step), DEMO_BOARD.riscvTarget, step);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The board's regions as its team would configure them (renamed ones merged, named, ordered),
 * and its flash budget.
 */
async function configureBoard(target: TargetCall, flashLimit: number): Promise<void> {
  const saved = await target('PUT', '/region-config', {
    region_config: {
      version: 2,
      regions: {
        flash: { merge_into: 'flash0' },
        ram: { merge_into: 'ram0' },
        flash0: { display_name: 'Main flash', kind: 'flash', order: 0 },
        ram0: { display_name: 'SRAM', kind: 'ram', order: 1 },
        ram4: { display_name: 'CCM RAM', kind: 'ram', order: 2 },
      },
    },
  });
  if (saved.status !== 200)
    throw new Error(`demo region config not saved: ${JSON.stringify(saved.json)}`);
  const budget = await target('POST', '/budgets', {
    name: DEMO_BOARD.budget,
    limits: { flash0: flashLimit },
  });
  if (budget.status !== 201)
    throw new Error(`demo budget not created: ${JSON.stringify(budget.json)}`);
}

main().catch((error: unknown) => {
  const cause = error instanceof Error && error.cause ? ` (${String(error.cause)})` : '';
  console.error(
    `Demo seed failed: ${error instanceof Error ? error.message : String(error)}${cause}`,
  );
  process.exit(1);
});
