export { ClickHouseClient, ClickHouseError, type ClickHouseSettings } from '@clickhouse/client';
export { createClickHouse, pingClickHouse, type ClickHouseOptions } from './client.js';
export { quoteDatabaseName } from './identifiers.js';
export { CLICKHOUSE_TOPOLOGIES, purgeStatement, type ClickHouseTopology } from './topology.js';
export {
  migrate,
  MIGRATIONS_TABLE,
  type AppliedMigration,
  type MigrateOptions,
  type MigrateResult,
  type MigrationEvent,
} from './migrations/migrate.js';
export { DEFAULT_MIGRATIONS_DIR, loadMigrations, type Migration } from './migrations/files.js';
export { splitStatements } from './migrations/sql-text.js';
export { clusterStatements, ClusterFormError } from './migrations/cluster.js';
export { MutationsWaitTimeoutError, type PendingMutation } from './migrations/mutations.js';
export { LOCK_TABLE, MigrationLock, type LockOptions } from './migrations/lock.js';
export {
  MigrationChecksumError,
  MigrationFailedError,
  MigrationLockTimeoutError,
  UnknownAppliedMigrationError,
} from './migrations/errors.js';
