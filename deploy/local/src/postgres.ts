import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { logFile, stackPaths } from './paths.js';
import { stackPorts } from './ports.js';
import { waitFor } from './processes.js';
import { chownTo, ensureTraversable, postgresBinDir, runAs } from './system.js';

const USER = 'postgres';
export const DATABASE_NAME = 'memtrail';

export function localPostgresUrl(database = DATABASE_NAME): string {
  return `postgres://postgres@127.0.0.1:${stackPorts.postgres}/${database}`;
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * Starts the PostgreSQL server under .data/postgres (initialising it on first use), or reuses it if
 * it is already running. Trust authentication on loopback only: this is the developer stack.
 */
export async function startLocalPostgres(): Promise<{ url: string; started: boolean }> {
  const url = localPostgresUrl();
  const adminUrl = localPostgresUrl('postgres');
  if (await canConnect(adminUrl).catch(() => false)) {
    await ensureDatabase(adminUrl, DATABASE_NAME);
    return { url, started: false };
  }
  const bin = postgresBinDir();
  const data = stackPaths.postgres;
  const log = logFile('postgres');
  for (const dir of [data, stackPaths.postgresSocket, stackPaths.logs])
    mkdirSync(dir, { recursive: true });
  for (const dir of ensureTraversable(USER, data)) {
    console.log(`postgres: made ${dir} searchable (o+x) so the postgres user can reach its data`);
  }
  chownTo(USER, data);
  chownTo(USER, stackPaths.postgresSocket);
  if (!existsSync(log)) writeFileSync(log, '');
  chownTo(USER, log);

  if (!existsSync(join(data, 'PG_VERSION'))) {
    runAs(USER, join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      USER,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
    ]);
  }
  const options = [
    `-p ${stackPorts.postgres}`,
    `-k ${stackPaths.postgresSocket}`,
    '-c listen_addresses=127.0.0.1',
    '-c max_connections=300',
    '-c fsync=on',
  ].join(' ');
  runAs(USER, join(bin, 'pg_ctl'), [
    'start',
    '-D',
    data,
    '-l',
    log,
    '-w',
    '-t',
    '60',
    '-o',
    options,
  ]);
  await waitFor('PostgreSQL', () => canConnect(adminUrl), { log });
  await ensureDatabase(adminUrl, DATABASE_NAME);
  return { url, started: true };
}

export async function stopLocalPostgres(): Promise<boolean> {
  if (!existsSync(join(stackPaths.postgres, 'postmaster.pid'))) return false;
  runAs(USER, join(postgresBinDir(), 'pg_ctl'), [
    'stop',
    '-D',
    stackPaths.postgres,
    '-m',
    'fast',
    '-w',
  ]);
  return true;
}
