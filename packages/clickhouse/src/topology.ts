/**
 * How the tables are laid out: on one server, or on a cluster as Replicated `<name>_local`
 * tables on every node behind Distributed tables of the plain names (deploy/clickhouse/cluster).
 */
export const CLICKHOUSE_TOPOLOGIES = ['single', 'cluster'] as const;
export type ClickHouseTopology = (typeof CLICKHOUSE_TOPOLOGIES)[number];

/**
 * A lightweight DELETE of the rows of `table` that match `condition`. A Distributed table takes
 * no DELETE, so on a cluster the statement goes to the local table on every node, through the
 * same `{cluster}` macro the cluster migrations use.
 */
export function deleteStatement(
  topology: ClickHouseTopology,
  table: string,
  condition: string,
): string {
  return topology === 'cluster'
    ? `DELETE FROM ${table}_local ON CLUSTER '{cluster}' WHERE ${condition}`
    : `DELETE FROM ${table} WHERE ${condition}`;
}
