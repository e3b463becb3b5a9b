// Fails when package-lock.json misses a platform binary: every optional dependency of a locked
// package (the per-OS/CPU builds of swc, rolldown, msgpackr-extract, …) must be locked too, or
// `npm install` on another platform would add it and leave the checkout dirty.
import { readFileSync } from 'node:fs';

// Optional dependencies the npm registry does not serve, so no lockfile can hold them.
const UNPUBLISHED = new Set([
  '@chdb/lib-darwin-arm64',
  '@chdb/lib-darwin-x64',
  '@chdb/lib-linux-arm64-gnu',
]);

const { packages } = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url)));
const locked = new Set(Object.keys(packages).map((path) => path.replace(/^.*node_modules\//, '')));
const missing = Object.entries(packages).flatMap(([path, entry]) =>
  Object.keys(entry.optionalDependencies ?? {})
    .filter((name) => !locked.has(name) && !UNPUBLISHED.has(name))
    .map((name) => `${name} (optional dependency of ${path || 'the root'})`),
);
if (missing.length > 0) {
  console.error(`package-lock.json misses ${missing.length} optional dependencies:`);
  for (const line of missing) console.error(`  ${line}`);
  console.error(
    'Re-resolve the package that declares them: `npm install -D <package>@<its version> ' +
      '--package-lock-only`, then `npm uninstall -D <package> --package-lock-only` (it stays locked ' +
      'as the dependency it was, now with every platform build).',
  );
  process.exit(1);
}
