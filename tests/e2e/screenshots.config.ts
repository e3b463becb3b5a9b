import { defineConfig } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import base from './playwright.config.ts';

// `npm run screenshots -w @memtrail/web`: captures the home page's carousel images from the
// running stack with the e2e browser set-up. Kept apart from the specs so `npm test` never
// rewrites files under web/public.
const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

export default defineConfig({
  ...base,
  testDir: './screenshots',
  testMatch: '**/*.shot.ts',
  // Its own artifacts folder: a capture run must not clear the last e2e run's artifacts.
  outputDir: join(resultsDir, 'screenshot-artifacts'),
  reporter: [['list']],
  timeout: 120_000,
});
