// `npm run migrate -w @memtrail/db`: applies pending migrations to DATABASE_URL and exits.
// Exit codes: 0 applied or nothing to do, 1 a migration or the connection failed, 2 usage.

import { describeDatabase, migrateDeploy } from '../migrate.js';

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(
      'migrate: DATABASE_URL is not set (e.g. postgres://user:pass@host:5432/memtrail)',
    );
    return 2;
  }
  const target = describeDatabase(databaseUrl);
  try {
    const result = await migrateDeploy(databaseUrl, {
      log: (line) => console.log(`migrate: ${line}`),
    });
    if (result.applied.length === 0) {
      console.log(
        `migrate: ${target} is up to date (${result.alreadyApplied.length} migrations applied)`,
      );
    } else {
      console.log(`migrate: applied ${result.applied.length} migration(s) to ${target}:`);
      for (const name of result.applied) console.log(`  ${name}`);
    }
    return 0;
  } catch (error) {
    console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
