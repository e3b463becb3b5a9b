import { stripComments } from './sql-text.js';

const ON_CLUSTER = "ON CLUSTER '{cluster}'";

/** A statement of a single-node migration that has no generated cluster form. */
export class ClusterFormError extends Error {
  constructor(file: string, statement: string, reason: string) {
    super(`${file}: no cluster form for "${statement.slice(0, 80)}…": ${reason}`);
    this.name = 'ClusterFormError';
  }
}

/**
 * The cluster form of one single-node migration statement (docs/operations.md, "ClickHouse at
 * scale"): every table becomes a Replicated `<name>_local` table on every node behind a
 * Distributed table of the plain name, and every statement runs `ON CLUSTER '{cluster}'`. The
 * single-node files are the one source of the schema; this covers the statements they use:
 *
 * - `CREATE TABLE IF NOT EXISTS t (…) ENGINE = E(args) …` with a `-- shard by: <expr>` comment
 *   (the Distributed table's sharding key): a `ReplicatedE` local table plus the Distributed one.
 *   `non_replicated_deduplication_window` is dropped: replicated tables deduplicate by token on
 *   their own (`replicated_deduplication_window`).
 * - `ALTER TABLE t …`: on the local table; column changes on the Distributed table too.
 * - `DROP TABLE IF EXISTS t` and `DROP VIEW IF EXISTS v`: both tables, or the view.
 */
export function clusterStatements(file: string, statement: string): string[] {
  const shard = /--\s*shard by:\s*(.+)$/m.exec(statement)?.[1]?.trim();
  const sql = stripComments(statement).replace(/\s+/g, ' ');
  const refuse = (reason: string): never => {
    throw new ClusterFormError(file, sql, reason);
  };

  const create =
    /^CREATE TABLE IF NOT EXISTS (\w+) (\(.*\)) ENGINE = (\w+)(?:\((.*?)\))? (ORDER BY .*)$/.exec(
      sql,
    );
  if (create) {
    const [, name, columns, engine, args, rest] = create;
    if (!shard) return refuse('a table needs a "-- shard by: <expression>" comment');
    if (!engine!.endsWith('MergeTree')) return refuse(`engine ${engine} is not a MergeTree`);
    const path = `'/clickhouse/tables/{shard}/{database}/${name}_local', '{replica}'`;
    const settings = rest!
      .replace(/,?\s*non_replicated_deduplication_window\s*=\s*\d+/g, '')
      .replace(/SETTINGS\s*,\s*/, 'SETTINGS ')
      .replace(/\s*SETTINGS\s*$/, '');
    return [
      `CREATE TABLE IF NOT EXISTS ${name}_local ${ON_CLUSTER} ${columns} ` +
        `ENGINE = Replicated${engine}(${path}${args ? `, ${args}` : ''}) ${settings}`,
      `CREATE TABLE IF NOT EXISTS ${name} ${ON_CLUSTER} AS ${name}_local ` +
        `ENGINE = Distributed('{cluster}', currentDatabase(), ${name}_local, ${shard})`,
    ];
  }
  const alter = /^ALTER TABLE (\w+) (.*)$/.exec(sql);
  if (alter) {
    const [, name, operations] = alter;
    const local = `ALTER TABLE ${name}_local ${ON_CLUSTER} ${operations}`;
    return /^(ADD|DROP|MODIFY|RENAME|COMMENT) COLUMN/.test(operations!)
      ? [local, `ALTER TABLE ${name} ${ON_CLUSTER} ${operations}`]
      : [local];
  }
  const dropTable = /^DROP TABLE IF EXISTS (\w+)( SYNC)?$/.exec(sql);
  if (dropTable) {
    const [, name, sync = ''] = dropTable;
    return [
      `DROP TABLE IF EXISTS ${name} ${ON_CLUSTER}${sync}`,
      `DROP TABLE IF EXISTS ${name}_local ${ON_CLUSTER}${sync}`,
    ];
  }
  const dropView = /^DROP VIEW IF EXISTS (\w+)( SYNC)?$/.exec(sql);
  if (dropView) return [`DROP VIEW IF EXISTS ${dropView[1]} ${ON_CLUSTER}${dropView[2] ?? ''}`];
  return refuse('only CREATE TABLE, ALTER TABLE, DROP TABLE and DROP VIEW have a generated form');
}
