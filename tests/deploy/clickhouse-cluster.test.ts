import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseLogLevel, type ClickHouseClient } from '@clickhouse/client';
import {
  clusterStatements,
  ClusterFormError,
  createClickHouse,
  loadMigrations,
  migrate,
} from '@memtrail/clickhouse';
import { startEmbeddedClickHouse } from '@memtrail/embedded-clickhouse';

/** Migrations from here on have generated cluster forms; earlier ones were written by hand. */
const FIRST_GENERATED = 11;

const normalise = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * A cluster statement as one server can run it: no `ON CLUSTER`, the Replicated engines'
 * Keeper path and replica name dropped, Distributed tables left out (no cluster to point at).
 * What remains is each `_local` table exactly as every node creates it.
 */
function onOneServer(statement: string): string | null {
  if (/ENGINE = Distributed\(/.test(statement)) return null;
  return statement
    .replace(/ ON CLUSTER '\{cluster\}'/g, '')
    .replace(/Replicated(\w*MergeTree)\('[^']*', '\{replica\}'(?:, )?/g, '$1(');
}

describe('ClickHouse cluster migrations', () => {
  it('have a cluster form for every migration: written by hand before, generated since', async () => {
    const single = await loadMigrations();
    const cluster = await loadMigrations(undefined, 'cluster');
    expect(cluster.map((m) => m.file)).toEqual(single.map((m) => m.file));
    for (const [i, m] of cluster.entries()) {
      const generated = m.version >= FIRST_GENERATED;
      // A generated form carries its source's checksum; a written one its own file's.
      expect({ file: m.file, sameChecksum: m.checksum === single[i]!.checksum }).toEqual({
        file: m.file,
        sameChecksum: generated,
      });
      // Every DDL statement runs on the whole cluster.
      for (const statement of m.statements.map(normalise)) {
        if (/^(CREATE|ALTER|EXCHANGE|DETACH|ATTACH|DROP)/.test(statement))
          expect(statement).toContain("ON CLUSTER '{cluster}'");
      }
    }
  });

  it('give every table a Replicated local table behind a Distributed one, sharded by target', async () => {
    const [form] = clusterStatements(
      '0011_symbol_blocks.sql',
      `CREATE TABLE IF NOT EXISTS t (a String, b UInt64)
       ENGINE = ReplacingMergeTree ORDER BY (a, b)
       -- shard by: cityHash64(a)
       SETTINGS non_replicated_deduplication_window = 1000, index_granularity = 1024`,
    ).map(normalise);
    expect(form).toBe(
      "CREATE TABLE IF NOT EXISTS t_local ON CLUSTER '{cluster}' (a String, b UInt64) " +
        "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/{database}/t_local', '{replica}') " +
        'ORDER BY (a, b) SETTINGS index_granularity = 1024',
    );
    const statements = (await loadMigrations(undefined, 'cluster'))
      .filter((m) => m.version >= FIRST_GENERATED)
      .flatMap((m) => m.statements.map(normalise));
    expect(statements).toContain(
      "CREATE TABLE IF NOT EXISTS symbol_blocks_v2 ON CLUSTER '{cluster}' AS symbol_blocks_v2_local " +
        "ENGINE = Distributed('{cluster}', currentDatabase(), symbol_blocks_v2_local, cityHash64(project_id, target_id))",
    );
  });

  it('refuse a statement they have no form for, and a table without a sharding key', () => {
    expect(() =>
      clusterStatements(
        '0099_x.sql',
        'CREATE TABLE IF NOT EXISTS t (a String) ENGINE = MergeTree ORDER BY a',
      ),
    ).toThrow(ClusterFormError);
    expect(() => clusterStatements('0099_x.sql', 'INSERT INTO t SELECT 1')).toThrow(
      /only CREATE TABLE, ALTER TABLE, DROP TABLE and DROP VIEW/,
    );
  });

  describe('on a server', () => {
    // No Keeper here to run a cluster; ClickHouse itself parses every statement and runs the
    // generated ones with replication taken out, so the final schemas can be compared.
    let dataDir: string;
    let server: Awaited<ReturnType<typeof startEmbeddedClickHouse>>;
    let client: ClickHouseClient;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'memtrail-ch-cluster-'));
      server = await startEmbeddedClickHouse({ dataDir, port: 0 });
      client = createClickHouse({ url: server.url, logLevel: ClickHouseLogLevel.OFF });
    });
    afterAll(async () => {
      await client?.close();
      await server?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('parses every statement of every cluster migration', async () => {
      for (const migration of await loadMigrations(undefined, 'cluster')) {
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
    });

    it('end in the same schema as a single server: columns, keys, projections and settings', async () => {
      const describe = async (database: string, table: string) => {
        const rows = await client
          .query({
            query: `SELECT name, type, default_kind, default_expression, is_in_sorting_key
                    FROM system.columns WHERE database = {db:String} AND table = {t:String}
                    ORDER BY position`,
            query_params: { db: database, t: table },
            format: 'JSONEachRow',
          })
          .then((r) => r.json());
        const [definition] = await client
          .query({
            query: `SELECT sorting_key, primary_key, engine,
                      replaceRegexpAll(create_table_query, '^CREATE TABLE [^ ]+ ', '') AS ddl
                    FROM system.tables WHERE database = {db:String} AND name = {t:String}`,
            query_params: { db: database, t: table },
            format: 'JSONEachRow',
          })
          .then((r) => r.json<{ ddl: string; engine: string }>());
        // Only the deduplication window differs: replicated tables have their own.
        const ddl = definition!.ddl
          .replace(/(SETTINGS )non_replicated_deduplication_window = \d+, /, '$1')
          .replace(/, non_replicated_deduplication_window = \d+/, '');
        return { columns: rows, ...definition, ddl };
      };
      await migrate({ url: server.url, database: 'single_node' });
      await client.command({ query: 'CREATE DATABASE IF NOT EXISTS cluster_node' });
      const node = createClickHouse({
        url: server.url,
        database: 'cluster_node',
        logLevel: ClickHouseLogLevel.OFF,
      });
      try {
        const generated = (await loadMigrations(undefined, 'cluster')).filter(
          (m) => m.version >= FIRST_GENERATED,
        );
        for (const statement of generated.flatMap((m) => m.statements)) {
          const runnable = onOneServer(normalise(statement));
          if (runnable) await node.command({ query: runnable });
        }
      } finally {
        await node.close();
      }
      const tables = await client
        .query({
          query: `SELECT name FROM system.tables WHERE database = 'single_node'
                  AND name NOT LIKE 'schema\\_migrations%' ORDER BY name`,
          format: 'JSONEachRow',
        })
        .then((r) => r.json<{ name: string }>());
      expect(tables.length).toBeGreaterThan(0);
      for (const { name } of tables) {
        const single = await describe('single_node', name);
        const local = await describe('cluster_node', `${name}_local`);
        expect({ table: name, ...local }).toEqual({ table: name, ...single });
      }
    });
  });
});
