import { existsSync, readFileSync } from 'node:fs';

/**
 * Reads jest's and Playwright's JSON results and prints one line per suite plus the closing
 * `tests: N passed, N failed` line. Exits non-zero when anything failed or did not run: a missing
 * results file, or a test file that crashed before running its tests, counts as a failure.
 */

interface Tally {
  label: string;
  passed: number;
  failed: number;
  skipped: number;
  notes: string[];
}

interface JestResults {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTestSuites: number;
  testResults: { name: string; status: string; message: string; assertionResults: unknown[] }[];
}

interface PlaywrightResults {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors?: { message?: string }[];
}

function read<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

function jestTally(path: string): Tally {
  const tally: Tally = {
    label: 'unit + integration (jest)',
    passed: 0,
    failed: 0,
    skipped: 0,
    notes: [],
  };
  const results = read<JestResults>(path);
  if (!results) return { ...tally, failed: 1, notes: [`no results at ${path}: jest did not run`] };
  tally.passed = results.numPassedTests;
  tally.failed = results.numFailedTests;
  tally.skipped = results.numPendingTests + results.numTodoTests;
  for (const file of results.testResults) {
    // A file that failed to load or whose hooks threw has no assertion results of its own.
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      tally.failed += 1;
      tally.notes.push(
        `${file.name}: ${file.message.split('\n').find(Boolean) ?? 'failed to run'}`,
      );
    }
  }
  tally.notes.unshift(`${results.numTotalTestSuites} test files`);
  return tally;
}

function playwrightTally(path: string): Tally {
  const tally: Tally = {
    label: 'end-to-end (playwright, chromium)',
    passed: 0,
    failed: 0,
    skipped: 0,
    notes: [],
  };
  const results = read<PlaywrightResults>(path);
  if (!results)
    return { ...tally, failed: 1, notes: [`no results at ${path}: playwright did not run`] };
  tally.passed = results.stats.expected;
  tally.failed = results.stats.unexpected + results.stats.flaky;
  tally.skipped = results.stats.skipped;
  for (const error of results.errors ?? []) {
    tally.failed += 1;
    tally.notes.push(error.message?.split('\n')[0] ?? 'run error');
  }
  return tally;
}

const [jestPath = 'tests/test-results/jest.json', e2ePath = 'tests/test-results/e2e-report.json'] =
  process.argv.slice(2);
const tallies = [jestTally(jestPath), playwrightTally(e2ePath)];

console.log('\nTest summary');
for (const t of tallies) {
  console.log(`  ${t.label}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  for (const note of t.notes) console.log(`    ${note}`);
}
const passed = tallies.reduce((sum, t) => sum + t.passed, 0);
const failed = tallies.reduce((sum, t) => sum + t.failed, 0);
const skipped = tallies.reduce((sum, t) => sum + t.skipped, 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
