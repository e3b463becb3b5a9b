import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel } from '@clickhouse/client';
import { createClickHouse, loadMigrations, type Migration } from '@memtrail/clickhouse';
import { startClickHouseLocal } from '@memtrail/clickhouse-local';
import { repoRoot } from './manifests.js';

const CLUSTER_DIR = join(repoRoot, 'deploy', 'clickhouse', 'cluster', 'migrations');

interface TableDefinition {
  columns: string;
  orderBy: string;
  engine: string;
}

/** Comments out, whitespace collapsed: what the server would see. */
const normalise = (sql: string) =>
  sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** CREATE TABLE statements with a column list, by table name. */
function tables(migrations: Migration[]): Map<string, TableDefinition> {
  const found = new Map<string, TableDefinition>();
  for (const statement of migrations.flatMap((m) => m.statements).map(normalise)) {
    const match =
      /^CREATE TABLE IF NOT EXISTS (\w+)(?: ON CLUSTER '\{cluster\}')? \((.*)\) ENGINE = (\w+)\(.*?\) ORDER BY (\([^)]*\)|\S+)/.exec(
        statement,
      );
    if (match) {
      found.set(match[1]!, { columns: match[2]!, engine: match[3]!, orderBy: match[4]! });
    }
  }
  return found;
}

describe('ClickHouse cluster migrations (deploy/clickhouse/cluster)', () => {
  it('mirror every single-node migration, file for file', async () => {
    const single = await loadMigrations();
    const cluster = await loadMigrations(CLUSTER_DIR);
    const clusterFiles = new Set(cluster.map((m) => m.file));
    for (const migration of single) {
      expect({ file: migration.file, mirrored: clusterFiles.has(migration.file) }).toEqual({
        file: migration.file,
        mirrored: true,
      });
    }
  });

  it('give every table a replicated local table with the same columns and key', async () => {
    const single = tables(await loadMigrations());
    const cluster = tables(await loadMigrations(CLUSTER_DIR));
    expect(single.size).toBeGreaterThanOrEqual(3);
    for (const [name, definition] of single) {
      const local = cluster.get(`${name}_local`);
      expect({ table: name, local: Boolean(local) }).toEqual({ table: name, local: true });
      expect(local!.columns).toBe(definition.columns);
      expect(local!.orderBy).toBe(definition.orderBy);
      expect(local!.engine).toBe(`Replicated${definition.engine}`);
    }
  });

  it('put a Distributed table sharded by project under every name the services use', async () => {
    const single = tables(await loadMigrations());
    const statements = (await loadMigrations(CLUSTER_DIR)).flatMap((m) =>
      m.statements.map(normalise),
    );
    for (const name of single.keys()) {
      const distributed = statements.find((s) =>
        s.startsWith(`CREATE TABLE IF NOT EXISTS ${name} ON CLUSTER '{cluster}' AS ${name}_local`),
      );
      expect({ name, distributed }).toEqual({
        name,
        distributed: expect.stringContaining(
          `ENGINE = Distributed('{cluster}', currentDatabase(), ${name}_local, cityHash64(project_id))`,
        ),
      });
    }
    // Every DDL statement runs on the whole cluster.
    for (const statement of statements.filter((s) =>
      /^(CREATE|ALTER|EXCHANGE|DETACH|ATTACH|DROP)/.test(s),
    )) {
      expect(statement).toContain("ON CLUSTER '{cluster}'");
    }
  });

  describe('statements', () => {
    // No Keeper here to run them, but ClickHouse's own parser reads every one: a syntax error
    // fails now instead of in a cluster's migrator.
    let dataDir: string;
    let server: Awaited<ReturnType<typeof startClickHouseLocal>>;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'memtrail-ch-cluster-parse-'));
      server = await startClickHouseLocal({ dataDir, port: 0 });
    });
    afterAll(async () => {
      await server?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('all parse as ClickHouse SQL', async () => {
      const client = createClickHouse({ url: server.url, logLevel: ClickHouseLogLevel.OFF });
      try {
        for (const migration of await loadMigrations(CLUSTER_DIR)) {
          for (const statement of migration.statements) {
            const parsed = await client
              .query({ query: `EXPLAIN AST ${statement}`, format: 'TabSeparated' })
              .then((result) => result.text())
              .then(
                () => 'parsed',
                (error: Error) => error.message,
              );
            expect({ file: migration.file, statement, parsed }).toEqual({
              file: migration.file,
              statement,
              parsed: 'parsed',
            });
          }
        }
      } finally {
        await client.close();
      }
    });
  });
});
