import type { ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseTopology } from '../topology.js';

/** A mutation (ALTER … UPDATE / MATERIALIZE / DELETE) not yet done on every replica. */
export interface PendingMutation {
  table: string;
  mutationId: string;
  command: string;
  /** Parts still to rewrite, summed over the replicas that report the mutation. */
  partsToDo: number;
  /** The last error a replica hit while running it; '' when none. */
  latestFailReason: string;
}

export interface MutationsWaitOptions {
  topology: ClickHouseTopology;
  timeoutMs: number;
  pollMs: number;
  /** Called with the pending mutations whenever they change (not on every poll). */
  onWaiting?: (pending: PendingMutation[]) => void;
}

/**
 * On a server, ALTER statements that rewrite data (MATERIALIZE COLUMN / PROJECTION, UPDATE)
 * return at once and run in the background. A later migration that moves or copies parts (0009
 * does) would take parts the mutation has not reached yet, and the mutation, recorded on the
 * source table, would never reach them. So the migrator waits before each migration for the
 * mutations pending on the database at that moment. Mutations that start while it waits (the
 * worker's DELETEs of superseded rows) are not waited for, so a busy system cannot starve it.
 */
export async function waitForMutations(
  client: ClickHouseClient,
  database: string,
  options: MutationsWaitOptions,
): Promise<void> {
  const startedAt = Date.now();
  const first = await pendingMutations(client, database, options.topology);
  if (first.length === 0) return;
  const waitedFor = new Set(first.map(key));
  let pending = first;
  let reported = '';
  for (;;) {
    const summary = JSON.stringify(pending);
    if (summary !== reported) {
      reported = summary;
      options.onWaiting?.(pending);
    }
    const waited = Date.now() - startedAt;
    if (waited >= options.timeoutMs) throw new MutationsWaitTimeoutError(waited, pending);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(options.pollMs, options.timeoutMs - waited)),
    );
    pending = (await pendingMutations(client, database, options.topology)).filter((m) =>
      waitedFor.has(key(m)),
    );
    if (pending.length === 0) return;
  }
}

/** One line for logs and errors: table, id, command, parts left and the last failure. */
export function describeMutation(m: PendingMutation): string {
  const command = m.command.trim();
  const quoted = command.startsWith('(') ? command : `(${command})`;
  const failure = m.latestFailReason ? `, last failure: ${m.latestFailReason.split('\n')[0]}` : '';
  return `${m.table} ${m.mutationId} ${quoted}: ${m.partsToDo} part(s) to do${failure}`;
}

const key = (m: PendingMutation) => `${m.table}\0${m.mutationId}`;

/**
 * On a cluster every replica runs a replicated mutation itself, so the mutations of every
 * replica are read (through the same `{cluster}` macro as the cluster migrations).
 */
async function pendingMutations(
  client: ClickHouseClient,
  database: string,
  topology: ClickHouseTopology,
): Promise<PendingMutation[]> {
  const source =
    topology === 'cluster'
      ? "clusterAllReplicas('{cluster}', system.mutations)"
      : 'system.mutations';
  const result = await client.query({
    query: `SELECT table, mutation_id AS mutationId, any(command) AS command,
                   toUInt64(sum(parts_to_do)) AS partsToDo,
                   max(latest_fail_reason) AS latestFailReason
            FROM ${source}
            WHERE database = {database:String} AND NOT is_done AND NOT is_killed
            GROUP BY table, mutation_id
            ORDER BY table, mutation_id`,
    query_params: { database },
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  return result.json<PendingMutation>();
}

/** Mutations the next migration would have to wait for are still running. */
export class MutationsWaitTimeoutError extends Error {
  constructor(
    readonly waitedMs: number,
    readonly pending: readonly PendingMutation[],
  ) {
    const list = pending.map(describeMutation).join('; ');
    super(
      `ClickHouse mutations still running after ${Math.round(waitedMs / 1000)} s: ${list}. ` +
        'The next migration waits for them, since it may move or copy the parts they rewrite. ' +
        'Run the migration again to keep waiting, or stop a mutation that cannot finish with ' +
        'KILL MUTATION.',
    );
    this.name = 'MutationsWaitTimeoutError';
  }
}
