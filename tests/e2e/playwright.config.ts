import { defineConfig, devices } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Results land in tests/test-results whatever directory the runner is started from.
const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

// The gateway serves the built app and its API at one origin; point E2E_BASE_URL elsewhere to
// test another stack.
const baseURL = process.env.E2E_BASE_URL ?? 'http://localhost:5000';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: join(resultsDir, 'artifacts'),
  // One worker: the specs share one running stack and its data.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: join(resultsDir, 'e2e-report.json') }]],
  use: {
    baseURL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        // Browser downloads are impossible here, so the Debian build is used. The flags keep it
        // from calling home (updates, sync, QUIC) and let it run as root without a GPU.
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
          ],
        },
      },
    },
  ],
});
