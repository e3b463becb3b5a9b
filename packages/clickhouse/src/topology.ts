/**
 * How the tables are laid out: on one server, or on a cluster as Replicated `<name>_local`
 * tables on every node behind Distributed tables of the plain names (docs/operations.md).
 */
export const CLICKHOUSE_TOPOLOGIES = ['single', 'cluster'] as const;
export type ClickHouseTopology = (typeof CLICKHOUSE_TOPOLOGIES)[number];

/**
 * A mutation deleting the rows of `table` that match `condition`. `ALTER … DELETE` rewrites the
 * affected parts with their projections, so nothing of the rows stays readable (a lightweight
 * DELETE only masks rows, which a projection read may not see). A Distributed table takes no
 * mutation, so on a cluster the statement goes to the local table on every node, through the
 * same `{cluster}` macro the cluster migrations use. Run it with `mutations_sync = 2` to return
 * once every replica has applied it.
 */
export function purgeStatement(
  topology: ClickHouseTopology,
  table: string,
  condition: string,
): string {
  return topology === 'cluster'
    ? `ALTER TABLE ${table}_local ON CLUSTER '{cluster}' DELETE WHERE ${condition}`
    : `ALTER TABLE ${table} DELETE WHERE ${condition}`;
}
