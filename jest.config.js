// One jest configuration for every package and service. Sources are ESM TypeScript with Nest
// decorators, so swc keeps decorator metadata (tsx/esbuild would drop it) and emits ES modules;
// jest must run with NODE_OPTIONS=--experimental-vm-modules (the npm scripts set it).
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
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testMatch: ['<rootDir>/{packages,services,deploy,tests,web}/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/tests/e2e/'],
  testTimeout: 60_000,
};
