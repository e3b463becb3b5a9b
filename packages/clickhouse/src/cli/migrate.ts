#!/usr/bin/env node
import { migrate } from '../migrations/migrate.js';

/**
 * One-shot migrator (compose service, Kubernetes Job, `npm run migrate`).
 * CLICKHOUSE_URL is required; CLICKHOUSE_DATABASE defaults to memtrail;
 * CLICKHOUSE_USER / CLICKHOUSE_PASSWORD are optional. CLICKHOUSE_MIGRATIONS_DIR picks another
 * set of migrations (the cluster set in deploy/clickhouse/cluster/migrations).
 */
async function main(): Promise<void> {
  const url = process.env['CLICKHOUSE_URL'];
  if (!url) {
    throw new Error('CLICKHOUSE_URL is not set (e.g. http://localhost:8123)');
  }
  const database = process.env['CLICKHOUSE_DATABASE'] || 'memtrail';
  const username = process.env['CLICKHOUSE_USER'];
  const password = process.env['CLICKHOUSE_PASSWORD'];
  const migrationsDir = process.env['CLICKHOUSE_MIGRATIONS_DIR'];
  const result = await migrate({
    url,
    database,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(migrationsDir ? { migrationsDir } : {}),
    onEvent: (event) => {
      if (event.type === 'applied') console.log(`applied ${event.file} (${event.durationMs} ms)`);
    },
  });
  console.log(
    result.applied.length === 0
      ? `ClickHouse database ${database} is up to date (${result.alreadyApplied} migration(s) applied earlier)`
      : `Applied ${result.applied.length} migration(s) to ClickHouse database ${database}`,
  );
}

main().catch((err: unknown) => {
  console.error(`ClickHouse migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
