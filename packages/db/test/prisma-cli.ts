// Runs the Prisma CLI and the package scripts in packages/db as a developer would (through
// prisma.config.ts), and reports what a CLI process still held when it exited
// (fixtures/exit-report.mjs).

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');
const exitReporter = join(packageDir, 'test', 'fixtures', 'exit-report.mjs');

export interface ExitReport {
  /** setTimeout()s of 5 s or more that the CLI's code started, still pending at exit. */
  pendingCliTimers: number;
  /** Sockets (to Postgres) still open when the process exited. */
  openSockets: number;
}

export interface CliRun {
  code: number | null;
  output: string;
  atExit: ExitReport;
}

/** Runs `file args…` with node in packages/db; `databaseUrl` undefined runs it without one. */
function run(
  args: string[],
  databaseUrl: string | undefined,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', ...extraEnv };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), { cwd: packageDir, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** `prisma <args>` through prisma.config.ts, with what the process held when it exited. */
export async function prisma(args: string[], databaseUrl: string | undefined): Promise<CliRun> {
  const dir = await mkdtemp(join(tmpdir(), 'memtrail-prisma-cli-'));
  const reportFile = join(dir, 'exit.json');
  try {
    const result = await run(
      [process.execPath, '--import', exitReporter, prismaCli, ...args],
      databaseUrl,
      { MEMTRAIL_EXIT_REPORT: reportFile },
    );
    const atExit = JSON.parse(await readFile(reportFile, 'utf8')) as ExitReport;
    return { ...result, atExit };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `npm run <script> -- <args>` of this package. */
export function npmRun(script: string, args: string[], databaseUrl: string | undefined) {
  return run(['npm', 'run', '--silent', script, '--', ...args], databaseUrl);
}
