// The dependency rules `npm run lint` checks (dependency-cruiser): no import cycles; every import
// of a third-party or workspace package is declared in the importing workspace's own package.json;
// shared packages never depend on the services, the web app, the deployment or the tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Every workspace of the root package.json: its directory, name and declared dependencies. */
function workspaces() {
  const dirs = readJson('package.json').workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? readdirSync(pattern.slice(0, -2)).map((name) => `${pattern.slice(0, -2)}/${name}`)
      : [pattern],
  );
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => {
      const manifest = readJson(join(dir, 'package.json'));
      const declared = new Set(
        ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
          (field) => Object.keys(manifest[field] ?? {}),
        ),
      );
      return { dir, name: manifest.name, declared };
    });
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Workspace packages resolve to their sources (tsconfig.source-paths.json), not through
// node_modules, so their declaration is checked here rather than by dependency types.
const undeclaredWorkspaces = workspaces().flatMap((from, _, all) => {
  const undeclared = all.filter((to) => to !== from && !from.declared.has(to.name));
  if (undeclared.length === 0) return [];
  return [
    {
      name: 'undeclared-workspace-dependency',
      comment: `${from.dir}/package.json does not declare this workspace package`,
      severity: 'error',
      from: { path: `^${escape(from.dir)}/` },
      to: { path: `^(${undeclared.map((to) => escape(to.dir)).join('|')})/` },
    },
  ];
});

export default {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'undeclared-dependency',
      comment: "the importing workspace's package.json does not declare this package",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    ...undeclaredWorkspaces,
    {
      name: 'package-depends-on-application',
      comment:
        'shared packages are used by services, the web app, the deployment and tests, never the reverse',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|web|deploy|tests)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '^(packages/[^/]+|services/[^/]+|deploy/local|web|tests)/(dist|bundle)/|^packages/db/src/generated/',
    },
    // Type-only imports count: a cycle through types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.source-paths.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'types', 'default'],
    },
  },
};
