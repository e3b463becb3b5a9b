/** An applied migration's file changed after it ran. */
export class MigrationChecksumError extends Error {
  constructor(
    readonly version: number,
    readonly file: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `Migration ${file} was changed after it was applied (checksum ${appliedChecksum.slice(0, 12)}… ` +
        `recorded, ${fileChecksum.slice(0, 12)}… on disk). Applied migrations are immutable: ` +
        'restore the file and put the change in a new migration.',
    );
    this.name = 'MigrationChecksumError';
  }
}

/** The database records a migration that no file describes. */
export class UnknownAppliedMigrationError extends Error {
  constructor(
    readonly version: number,
    readonly migrationName: string,
  ) {
    super(
      `The database has migration ${String(version).padStart(4, '0')}_${migrationName} applied, ` +
        'but no such file exists: this build is older than the schema it is migrating.',
    );
    this.name = 'UnknownAppliedMigrationError';
  }
}

export class MigrationLockTimeoutError extends Error {
  constructor(
    readonly waitedMs: number,
    readonly holders: string[],
  ) {
    super(
      `Could not take the migration lock within ${waitedMs} ms; held by ${holders.join(', ') || 'nobody (contention)'}. ` +
        'Another migrator is running, or one crashed and its lease has not expired yet.',
    );
    this.name = 'MigrationLockTimeoutError';
  }
}

export class MigrationFailedError extends Error {
  constructor(
    readonly file: string,
    readonly statementIndex: number,
    cause: unknown,
  ) {
    super(
      `Migration ${file} failed at statement ${statementIndex + 1}: ${(cause as Error)?.message ?? String(cause)}. ` +
        'Statements before it stay applied (ClickHouse DDL is not transactional); write statements ' +
        'idempotently (IF NOT EXISTS) so the migration can simply be re-run after a fix.',
      { cause },
    );
    this.name = 'MigrationFailedError';
  }
}
