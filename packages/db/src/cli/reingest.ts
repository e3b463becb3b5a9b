// `entrypoint.sh reingest [--project <id>]`: marks the stored symbol blocks to be copied to
// ClickHouse again, e.g. after ClickHouse was lost without a backup (docs/operations.md); the
// workers then copy them. Exit codes: 0 done, 1 the database failed, 2 usage.

import { parseArgs } from 'node:util';
import { describeDatabase } from '../migrate.js';
import { markBlocksForCopy } from '../reingest.js';
import { createSqlPool } from '../sql-pool.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function main(): Promise<number> {
  let projectId: string | undefined;
  try {
    projectId = parseArgs({ options: { project: { type: 'string' } } }).values.project;
  } catch (error) {
    console.error(`reingest: ${(error as Error).message}\nusage: reingest [--project <id>]`);
    return 2;
  }
  if (projectId !== undefined && !UUID.test(projectId)) {
    console.error(`reingest: --project must be a project id (a UUID), got "${projectId}"`);
    return 2;
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(
      'reingest: DATABASE_URL is not set (e.g. postgres://user:pass@host:5432/memtrail)',
    );
    return 2;
  }
  const sql = createSqlPool(databaseUrl, { poolSize: 1 });
  try {
    const marked = await markBlocksForCopy(sql, { projectId });
    const scope = projectId ? `of project ${projectId} ` : '';
    console.log(
      `reingest: marked ${marked} symbol block(s) ${scope}in ${describeDatabase(databaseUrl)} ` +
        'to be copied to ClickHouse again; running ingest workers copy them in batches, and ' +
        'reports stay readable meanwhile',
    );
    return 0;
  } catch (error) {
    console.error(`reingest: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await sql.end();
  }
}

process.exitCode = await main();
