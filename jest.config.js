// One jest configuration for every package and service. Sources are ESM TypeScript with Nest
// decorators, so swc keeps decorator metadata (tsx/esbuild would drop it) and emits ES modules;
// jest must run with NODE_OPTIONS=--experimental-vm-modules (the npm scripts set it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Integration tests use the stores named by DATABASE_URL, REDIS_URL and CLICKHOUSE_URL
// (@memtrail/testing). When none is set, take those of the stack `npm run up` is running: the
// URLs it wrote to .data/stack.env. Workers inherit this process's environment.
const STORE_URLS = ['DATABASE_URL', 'REDIS_URL', 'CLICKHOUSE_URL'];
const dataDir = process.env.MEMTRAIL_DATA_DIR ?? fileURLToPath(new URL('.data', import.meta.url));
const stackEnv = join(dataDir, 'stack.env');
if (STORE_URLS.every((key) => !process.env[key]) && existsSync(stackEnv)) {
  for (const line of readFileSync(stackEnv, 'utf8').split('\n')) {
    const eq = line.indexOf('=');
    const key = line.slice(0, eq);
    if (STORE_URLS.includes(key)) process.env[key] = line.slice(eq + 1).trim();
  }
}

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
  },
];

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    // Workspace packages are tested from source, so no build is needed before jest.
    '^@memtrail/local-stack$': '<rootDir>/deploy/local/src/index.ts',
    '^memtrail$': '<rootDir>/packages/cli/src/index.ts',
    '^@memtrail/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@memtrail/([a-z-]+)/([a-z-]+)$': '<rootDir>/packages/$1/src/$2/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{packages,services,deploy,tests,web}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/tests/e2e/'],
  testTimeout: 60_000,
};
