import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { UsageError } from './args.js';
import { ciKind, type Env } from './git/ci.js';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Everything a command touches outside itself, so tests can run commands in-process. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: Env;
  cwd: string;
  /** `-v/--verbose`: the least severe level written to stderr (default INFO). */
  logLevel?: LogLevel;
}

/** A failure at run time (missing file, network, server refusal): exit code 1. */
export class RuntimeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RuntimeError';
  }
}

export const VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;

export const DEFAULT_API_URL = 'http://localhost:5000';

export function apiUrl(explicit: string | undefined, env: Env): string {
  return explicit ?? env.MEMTRAIL_API_URL ?? DEFAULT_API_URL;
}

/**
 * The project an organisation CI token acts on: `--project`, else MEMTRAIL_PROJECT (an id, or a
 * name unique in the organisation). Sent as X-Memtrail-Project; project keys ignore it.
 */
export function chosenProject(explicit: string | undefined, env: Env): string | undefined {
  return explicit?.trim() || env.MEMTRAIL_PROJECT?.trim() || undefined;
}

export function projectHeader(project: string | undefined): Record<string, string> {
  return project ? { 'X-Memtrail-Project': project } : {};
}

export function userAgent(env: Env): string {
  const kind = ciKind(env);
  const where = kind === 'github' ? 'GitHub-Actions' : kind === 'gitlab' ? 'GitLab-CI' : 'CLI';
  return `Memtrail-CLI/${VERSION} (${where})`;
}

/**
 * The API key, only ever from the environment: MEMTRAIL_API_KEY, then MEMBROWSE_API_KEY (so
 * existing CI secrets keep working), or the variable named by --api-key-env.
 */
export function apiKey(env: Env, variable: string | undefined, command: string): string {
  const names = variable ? [variable] : ['MEMTRAIL_API_KEY', 'MEMBROWSE_API_KEY'];
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  throw new UsageError(`no API key: set ${names.join(' or ')} in the environment`, command);
}

const SEVERITY: Record<LogLevel | 'ERROR', number> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3 };

/** Logs go to stderr as `LEVEL: message`, so stdout stays the command's output. */
export function log(io: CliIo, level: LogLevel | 'ERROR', message: string): void {
  if (SEVERITY[level] < SEVERITY[io.logLevel ?? 'INFO']) return;
  io.stderr.write(`${level}: ${message}\n`);
}

export function debug(io: CliIo, message: string): void {
  log(io, 'DEBUG', message);
}

export function info(io: CliIo, message: string): void {
  log(io, 'INFO', message);
}

export function warn(io: CliIo, message: string): void {
  log(io, 'WARNING', message);
}

/**
 * GitHub Actions' job summary (`GITHUB_STEP_SUMMARY`): Markdown shown on the run's page. Outside
 * GitHub Actions the variable is unset and nothing is written.
 */
export function appendStepSummary(io: CliIo, markdown: string): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  } catch (error) {
    warn(io, `cannot write the job summary ${file}: ${(error as Error).message}`);
  }
}
