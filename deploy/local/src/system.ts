import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export const isRoot = process.getuid?.() === 0;

/** Runs a command, as the postgres user when we are root (PostgreSQL refuses to run as root). */
export function runAs(user: string | undefined, command: string, args: string[]): string {
  const [cmd, argv] =
    user && isRoot ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  try {
    return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${(e.stderr || e.stdout || e.message).trim()}`,
    );
  }
}

export function chownTo(user: string, path: string): void {
  if (!isRoot) return;
  const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
  chownSync(path, uid, gid);
}

/** Debian installs each PostgreSQL major under /usr/lib/postgresql/<major>/bin; take the newest. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(`${root}/${name}/bin/pg_ctl`))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: install the Debian package ' +
        '"postgresql" (deploy/local/setup.sh does this) or set DATABASE_URL to an existing server',
    );
  }
  return `${root}/${majors[0]}/bin`;
}

export function which(command: string): string | undefined {
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * Makes every ancestor of `path` searchable by `user`, so a server running as that user can
 * reach its data directory inside a checkout under a private folder (e.g. a mktemp dir with mode
 * 700). Only the search bit for others is added, and only where it is missing; returns what
 * was changed so the caller can say so.
 */
export function ensureTraversable(user: string, path: string): string[] {
  if (!isRoot) return [];
  const changed: string[] = [];
  const ancestors: string[] = [];
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) ancestors.unshift(dir);
  for (const dir of ancestors) {
    try {
      execFileSync('runuser', ['-u', user, '--', 'test', '-x', dir], { stdio: 'ignore' });
    } catch {
      chmodSync(dir, statSync(dir).mode | 0o001);
      changed.push(dir);
    }
  }
  return changed;
}
