import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// Benchmarks in Chromium (`npm run bench:web`): same browser set-up as the e2e specs, run apart
// from them so `npm test` never times anything.
export default defineConfig({
  ...base,
  testDir: './bench',
  testMatch: '**/*.bench.ts',
  reporter: [['list']],
  timeout: 600_000,
});
