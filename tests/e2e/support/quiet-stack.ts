import pg from 'pg';
import { readStackEnv } from '@memtrail/local-stack';

const env = () => ({ ...readStackEnv(), ...process.env });

async function sleep(ms: number) {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until every report of the project is in ClickHouse and ClickHouse has finished merging
 * them, so that timings taken next measure the page, not a worker and a merge still running on
 * the same cores.
 */
export async function waitUntilIngestedAndMerged(projectId: string, timeoutMs = 600_000) {
  const { DATABASE_URL, CLICKHOUSE_URL } = env();
  if (!DATABASE_URL || !CLICKHOUSE_URL)
    throw new Error('DATABASE_URL/CLICKHOUSE_URL are not set and .data/stack.env has none');
  const deadline = Date.now() + timeoutMs;
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    for (;;) {
      const { rows } = await db.query<{ pending: string }>(
        `SELECT count(*) AS pending FROM reports r JOIN targets t ON t.id = r.target_id
         WHERE t.project_id = $1 AND r.status <> 'ingested'`,
        [projectId],
      );
      const merges = new URL(CLICKHOUSE_URL);
      merges.searchParams.set('query', 'SELECT count() FROM system.merges');
      const running = Number((await (await fetch(merges)).text()).trim());
      if (Number(rows[0]!.pending) === 0 && running === 0) return;
      if (Date.now() > deadline)
        throw new Error(`still ${rows[0]!.pending} report(s) pending, ${running} merge(s) running`);
      await sleep(1000);
    }
  } finally {
    await db.end();
  }
}
