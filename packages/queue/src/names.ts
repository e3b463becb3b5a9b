/** Queue names shared by producers (gateway) and consumers (ingest-worker). */
export const QueueNames = {
  reports: 'reports',
  /** Deleted projects whose Postgres rows are removed in the background (gateway). */
  projectPostgresPurges: 'project-postgres-purges',
  /** Deleted projects whose ClickHouse rows the ingest worker removes. */
  projectClickHousePurges: 'project-clickhouse-purges',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];
