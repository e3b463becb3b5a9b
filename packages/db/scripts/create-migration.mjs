// `npm run migrate:create -w @memtrail/db -- <name>`: writes the SQL that brings the committed
// migrations up to prisma/schema.prisma into prisma/migrations/<timestamp>_<name>/migration.sql,
// without applying it, so it can be edited first. Stands in for `prisma migrate dev
// --create-only`, which crashes in this setup (W7 in src/prisma-workarounds.ts). Needs
// DATABASE_URL: the migrations are replayed on a temporary shadow database on that server.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const migrationsDir = join(packageDir, 'prisma', 'migrations');
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js');

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run migrate:create -w @memtrail/db -- <name in snake_case>');
  process.exit(2);
}

const diff = spawnSync(
  process.execPath,
  [
    prismaCli,
    'migrate',
    'diff',
    '--from-migrations',
    migrationsDir,
    '--to-schema-datamodel',
    join(packageDir, 'prisma', 'schema.prisma'),
    '--script',
  ],
  { cwd: packageDir, encoding: 'utf8', stdio: ['inherit', 'pipe', 'inherit'] },
);
if (diff.status !== 0) {
  console.error(`migrate:create: prisma migrate diff failed (exit ${diff.status})`);
  process.exit(1);
}
const sql = diff.stdout;
if (sql.trim() === '' || sql.trim() === '-- This is an empty migration.') {
  console.log('migrate:create: the schema matches the migrations; nothing to create');
  process.exit(0);
}

// Prisma names migrations <UTC yyyymmddhhmmss>_<name>; keep that so both tools agree on order.
const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
const dir = join(migrationsDir, `${stamp}_${name}`);
if (existsSync(dir)) {
  console.error(`migrate:create: ${dir} already exists`);
  process.exit(1);
}
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'migration.sql'), sql);
console.log(`migrate:create: wrote ${join(dir, 'migration.sql')}`);
console.log('Review or edit it, then apply with `npm run migrate:dev -w @memtrail/db`.');
