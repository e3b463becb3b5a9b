// @memtrail/db: the Prisma schema's generated client, a factory that wires it to PostgreSQL
// through node-postgres, the migration runner, and the readers of stored report versions and
// symbol blocks.

export { createPrismaClient, parseDatabaseUrl, type DbClientOptions } from './client.js';
export {
  DEFAULT_MIGRATIONS_DIR,
  PRISMA_MIGRATE_LOCK_KEY,
  describeDatabase,
  migrateDeploy,
  readMigrations,
  type MigrateOptions,
  type MigrateResult,
  type Migration,
} from './migrate.js';
export { markBlocksForCopy, type ReingestScope } from './reingest.js';
export {
  MAX_RECORD_DEPTH,
  readBlocks,
  readRecord,
  readStoredEnvelope,
  readStoredPayload,
  readVersion,
  storableRecord,
  type Queryable,
  type RecordCache,
  type StoredRecord,
  type StoredVersion,
  type VersionKey,
} from './stored-reports.js';
export {
  createSqlPool,
  inTransaction,
  type TransactionOptions,
  SqlPool,
  type SqlClient,
  type SqlPoolOptions,
} from './sql-pool.js';
// PrismaClient, the Prisma namespace (input types, errors, JsonValue, …), the model types
// (User, Project, Report, …) and the enums (ReportKind, ReportStatus, …).
export * from './generated/prisma/client.js';
