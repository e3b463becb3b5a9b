// Temporary databases for the tests, created on the shared test server: DATABASE_URL's server
// when set, otherwise the one @memtrail/testing provides (containers or the embedded stack).

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { provideBaseStores } from '@memtrail/testing';

const base = await provideBaseStores();

export function serverUrl(): string {
  return base.stores.DATABASE_URL;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface TempDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createTempDatabase(): Promise<TempDatabase> {
  const name = `memtrail_db_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    name,
    url: withDatabase(serverUrl(), name),
    drop: async () => {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

export async function databaseExists(name: string): Promise<boolean> {
  const { rows } = await admin((client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  return rows.length > 0;
}

/** Runs queries on a database with a plain node-postgres client. */
export async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
