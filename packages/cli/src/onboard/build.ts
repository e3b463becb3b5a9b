import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Env } from '../git/ci.js';

export interface BuildResult {
  ok: boolean;
  /** Exit code, or the signal that ended the build. */
  status: string;
  log: string;
}

/** The last lines of a build log, for the failure message. */
export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Runs the user's build command through the shell in the worktree. Its output goes to a log file
 * rather than the terminal, so the progress display stays readable; failures show the tail.
 */
export function runBuild(
  command: string,
  cwd: string,
  env: Env,
  log: string,
): Promise<BuildResult> {
  mkdirSync(dirname(log), { recursive: true });
  const fd = openSync(log, 'w');
  return new Promise((resolve) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', fd, fd] });
    child.on('error', (error) => {
      closeSync(fd);
      resolve({ ok: false, status: error.message, log });
    });
    child.on('close', (code, signal) => {
      closeSync(fd);
      resolve({ ok: code === 0, status: signal ? `signal ${signal}` : `exit code ${code}`, log });
    });
  });
}
