// Prisma CLI configuration (generate, migrate dev/diff/status). Prisma runs here fully offline:
// `engine: 'js'` uses the WASM schema engine bundled with the `prisma` package and connects through
// the pg driver adapter, so no engine binary is ever downloaded. That mode needs several
// workarounds; all of them (W1–W7) are described and implemented in src/prisma-workarounds.ts.
//
// DATABASE_URL names the development database; `migrate dev` and `migrate diff --from-migrations`
// also create and drop a temporary shadow database on the same server (W2), or use
// SHADOW_DATABASE_URL when set.

import { defineConfig } from 'prisma/config';
import {
  MemtrailPgAdapterFactory,
  prepareCliEnvironment,
  requireDatabaseUrl,
} from './src/prisma-workarounds.ts';

// W4 (placeholder URL so the schema can be read without a database) and W5 (long timers).
const { databaseUrl, shadowDatabaseUrl } = prepareCliEnvironment();

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () =>
    new MemtrailPgAdapterFactory(requireDatabaseUrl(databaseUrl, 'This prisma command'), {
      // One connection: the schema engine takes its migration advisory lock with a plain
      // `SELECT pg_advisory_lock(…)`, which only protects the session it ran on.
      poolSize: 1,
      // W5: do not let the connection the CLI never closes keep the process alive.
      allowExitOnIdle: true,
      ...(shadowDatabaseUrl && { shadowDatabaseUrl }),
    }),
});
