#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { readStackEnv } from '../env-file.js';
import { withLock } from '../lock.js';
import { repoRoot } from '../paths.js';
import { stackPorts } from '../ports.js';
import { which } from '../system.js';
import { buildDemoFirmware } from './firmware.js';
import { DEMO, DEMO_COMMITS, demoCommitSha } from './history.js';

/**
 * `npm run seed` (run by `npm run up` once the services answer): a demo account owning a demo
 * project whose target has a real history — firmware compiled by the cross compiler, analysed
 * and uploaded by our CLI — so a first visit shows populated dashboards, diffs and treemaps.
 * Idempotent: once the demo project has reports it only prints the credentials.
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

async function seeded(db: pg.Client): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT count(r.id)::int AS reports FROM users u
       JOIN projects p ON p.owner_id = u.id AND p.name = $2
       JOIN targets t ON t.project_id = p.id
       JOIN reports r ON r.target_id = t.id
     WHERE u.email = $1`,
    [DEMO.email, DEMO.project],
  );
  return (rows[0]?.reports ?? 0) >= DEMO_COMMITS.length;
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
      if (!which('arm-none-eabi-gcc')) {
        console.log(
          'Demo data skipped: arm-none-eabi-gcc is not installed (apt-get install gcc-arm-none-eabi)',
        );
        return;
      }
      const token = await signIn(db);
      await deleteDemoProjects(db, token);
      const created = await call<{ data?: { project?: { api_key?: string } }; error?: string }>(
        'POST',
        '/api/projects',
        {
          name: DEMO.project,
          description: 'A Cortex-M4 sensor node, built and uploaded by the memtrail CLI',
        },
        token,
      );
      const apiKey = created.json.data?.project?.api_key;
      if (!apiKey)
        throw new Error(`demo project not created: ${created.json.error ?? created.status}`);
      await uploadHistory(apiKey);
    }
    console.log(`Demo account: ${DEMO.email} / ${DEMO.password} (project "${DEMO.project}")`);
  } finally {
    await db.end();
  }
}

/** Each commit's firmware is compiled, then analysed and uploaded by the CLI as CI would. */
async function uploadHistory(apiKey: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-demo-'));
  const cli = join(repoRoot, 'packages/cli/dist/bin.js');
  try {
    for (const [step, message] of DEMO_COMMITS.entries()) {
      const build = buildDemoFirmware(dir, step);
      execFileSync(
        process.execPath,
        [
          cli,
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
          '--no-git',
          '--commit-sha',
          demoCommitSha(step),
          '--base-sha',
          step === 0 ? 'none' : demoCommitSha(step - 1),
          '--branch-name',
          DEMO.branch,
          '--commit-message',
          message,
          '--commit-timestamp',
          new Date(Date.UTC(2026, 10, 1 + step, 9)).toISOString(),
          '--author-name',
          'Demo Engineer',
          '--author-email',
          DEMO.email,
        ],
        { env: { ...process.env, MEMTRAIL_API_KEY: apiKey }, stdio: 'pipe' },
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`Demo seed failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
