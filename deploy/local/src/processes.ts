import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { logFile, pidFile } from './paths.js';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM means it exists but belongs to another user (postgres runs as its own user).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid recorded for a named process, if that process is still alive. */
export function runningPid(name: string): number | undefined {
  const file = pidFile(name);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim().split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
}

/** When the named process was started by us (the pid file's time), for staleness checks. */
export function startedAt(name: string): number {
  return statSync(pidFile(name)).mtimeMs;
}

export interface DetachedProcess {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Throughput work (ingestion, ClickHouse's inserts and merges) that should yield the CPU to
   * latency-sensitive processes (acknowledging uploads, answering reads) on a shared machine.
   */
  background?: boolean;
}

/** Nice value of background processes: they still get about a tenth of a busy core's time. */
export const BACKGROUND_NICE = 10;

/**
 * Lowers a started process's CPU priority. `nice` applies to every thread it will create; with
 * scheduler autogroups (most desktop and many server kernels) the process is also alone in the
 * group its new session created, and groups share the CPU equally whatever their threads' nice
 * values, so the group's own nice is set too.
 */
function backgroundCommand(command: string, args: string[]): [string, string[]] {
  return ['nice', ['-n', String(BACKGROUND_NICE), command, ...args]];
}

function lowerAutogroupPriority(name: string, pid: number): void {
  const autogroup = `/proc/${pid}/autogroup`;
  if (!existsSync(autogroup)) return;
  try {
    writeFileSync(autogroup, String(BACKGROUND_NICE));
  } catch (error) {
    // The process runs either way, only at the same priority as everything else.
    console.warn(`Could not lower the CPU priority of ${name}: ${(error as Error).message}`);
  }
}

/** Starts a process that outlives this one, with output appended to .data/logs/<name>.log. */
export function spawnDetached({
  name,
  command,
  args,
  env,
  cwd,
  background = false,
}: DetachedProcess): number {
  const log = logFile(name);
  mkdirSync(dirname(log), { recursive: true });
  mkdirSync(dirname(pidFile(name)), { recursive: true });
  const fd = openSync(log, 'a');
  try {
    const [file, argv] = background ? backgroundCommand(command, args) : [command, args];
    const child = spawn(file, argv, {
      cwd,
      env: env ?? process.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    if (!child.pid) throw new Error(`Could not start ${name}: ${file} ${argv.join(' ')}`);
    child.unref();
    // spawn() returns once the child has exec'd, so it already leads its own session here.
    if (background) lowerAutogroupPriority(name, child.pid);
    writeFileSync(pidFile(name), `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/** SIGTERM, then SIGKILL if the process has not exited within the grace period. */
export async function stopProcess(name: string, graceMs = 10_000): Promise<boolean> {
  const pid = runningPid(name);
  rmSync(pidFile(name), { force: true });
  if (pid === undefined) return false;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  return true;
}

/** Polls until `check` resolves true, failing with the log's tail so the cause is visible. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs = 60_000, log }: { timeoutMs?: number; log?: string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(200);
  }
  const tail =
    log && existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-20).join('\n') : '';
  throw new Error(
    `${what} did not become ready within ${timeoutMs} ms${tail ? `; last log lines:\n${tail}` : ''}`,
  );
}
