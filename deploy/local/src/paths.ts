import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest ancestor whose package.json declares the workspaces. */
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'deploy', 'local', 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Everything the local stack writes lives under .data/ (ignored by git). */
export const dataDir = resolve(process.env.MEMTRAIL_DATA_DIR ?? join(repoRoot, '.data'));

export const stackPaths = {
  postgres: join(dataDir, 'postgres'),
  postgresSocket: join(dataDir, 'run', 'postgres'),
  redis: join(dataDir, 'redis'),
  clickhouse: join(dataDir, 'clickhouse'),
  mail: join(dataDir, 'mail'),
  logs: join(dataDir, 'logs'),
  run: join(dataDir, 'run'),
  /** Connection URLs of the running stack, in `KEY=value` lines for shells, tests and services. */
  envFile: join(dataDir, 'stack.env'),
  /** Generated secrets of the local stack (mode 0600), apart from the shareable stack.env. */
  secretsFile: join(dataDir, 'secrets.env'),
};

export const logFile = (name: string) => join(stackPaths.logs, `${name}.log`);
export const pidFile = (name: string) => join(stackPaths.run, `${name}.pid`);
