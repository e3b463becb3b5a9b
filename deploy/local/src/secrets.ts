import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stackPaths } from './paths.js';

/** The secrets the local stack's services need; generated once, kept across restarts. */
export const LOCAL_SECRETS = ['JWT_SECRET', 'QUERY_SECRET'] as const;
export type LocalSecrets = Record<(typeof LOCAL_SECRETS)[number], string>;

function read(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * The local stack's secrets, from `file` (readable by its owner only), each generated at random
 * the first time it is needed. Never written to stack.env or printed: sessions signed with a
 * known key could be forged by anyone reaching the gateway, which listens on every interface.
 */
export function localSecrets(file = stackPaths.secretsFile): LocalSecrets {
  const secrets = read(file);
  const missing = LOCAL_SECRETS.filter((name) => !secrets[name]);
  for (const name of missing) secrets[name] = randomBytes(32).toString('hex');
  if (missing.length > 0) {
    mkdirSync(dirname(file), { recursive: true });
    const lines = Object.entries(secrets).map(([key, value]) => `${key}=${value}\n`);
    // Written whole under another name, then renamed: never a half-written or readable file.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, lines.join(''), { mode: 0o600 });
    renameSync(partial, file);
  }
  chmodSync(file, 0o600);
  return secrets as LocalSecrets;
}
