#!/usr/bin/env node
import { migrate } from '../migrations/migrate.js';
import { describeMutation } from '../migrations/mutations.js';
import { CLICKHOUSE_TOPOLOGIES, type ClickHouseTopology } from '../topology.js';

/**
 * One-shot migrator (compose service, Kubernetes Job, `npm run migrate`).
 * CLICKHOUSE_URL is required; CLICKHOUSE_DATABASE defaults to memtrail;
 * CLICKHOUSE_USER / CLICKHOUSE_PASSWORD are optional. CLICKHOUSE_MIGRATIONS_DIR picks another
 * folder of migrations; CLICKHOUSE_TOPOLOGY=cluster applies their cluster form (Replicated +
 * Distributed tables) and waits for mutations on every replica.
 * CLICKHOUSE_MUTATIONS_WAIT_SECONDS bounds the wait for running mutations before a migration.
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
    topology: topologyFromEnv(),
    ...mutationsTimeoutFromEnv(),
    onEvent: (event) => {
      if (event.type === 'waiting') {
        console.log(`${event.file} waits for ${event.mutations.map(describeMutation).join('; ')}`);
      }
      if (event.type === 'applied') console.log(`applied ${event.file} (${event.durationMs} ms)`);
    },
  });
  console.log(
    result.applied.length === 0
      ? `ClickHouse database ${database} is up to date (${result.alreadyApplied} migration(s) applied earlier)`
      : `Applied ${result.applied.length} migration(s) to ClickHouse database ${database}`,
  );
}

function topologyFromEnv(): ClickHouseTopology {
  const value = process.env['CLICKHOUSE_TOPOLOGY'] || 'single';
  if (!(CLICKHOUSE_TOPOLOGIES as readonly string[]).includes(value)) {
    throw new Error(`CLICKHOUSE_TOPOLOGY must be single or cluster, got '${value}'`);
  }
  return value as ClickHouseTopology;
}

/** CLICKHOUSE_MUTATIONS_WAIT_SECONDS, when set; migrate() has the default. */
function mutationsTimeoutFromEnv(): { mutationsTimeoutMs?: number } {
  const raw = process.env['CLICKHOUSE_MUTATIONS_WAIT_SECONDS'];
  if (!raw) return {};
  const seconds = Number(raw);
  if (!(seconds > 0)) {
    throw new Error(`CLICKHOUSE_MUTATIONS_WAIT_SECONDS must be a positive number, got '${raw}'`);
  }
  return { mutationsTimeoutMs: seconds * 1_000 };
}

main().catch((err: unknown) => {
  console.error(`ClickHouse migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
