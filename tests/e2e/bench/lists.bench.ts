import { expect, test, type Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readStackEnv } from '@memtrail/local-stack';
import { signUpAndSignIn } from '../support/account.ts';

// The lists of a large organisation (issue: 500 projects and 5,000 targets, usable in < 1 s):
// the projects list with the organisation chosen in the header, its search, and one project's
// targets page (1,000 of the 5,000 targets) with its server-side search. "Usable": from
// navigation start until the first page of rows is on screen, and from a keystroke in a search
// box until the filtered rows are. The rows are written straight into Postgres (this measures
// the lists, not uploads); the calls behind them are timed too.

const PROJECTS = 500;
const TARGETS = 5000;
const BIG_PROJECT_TARGETS = 1000;
const RUNS = 5;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SESSION_KEY = 'memtrail_auth_session';

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function accessToken(page: Page): Promise<string> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY);
  if (!raw) throw new Error(`no ${SESSION_KEY} in local storage`);
  return (JSON.parse(raw) as { access_token: string }).access_token;
}

async function seed(ownerEmail: string, organizationId: string): Promise<string> {
  const { DATABASE_URL } = { ...readStackEnv(), ...process.env };
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const owner = await db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [
      ownerEmail,
    ]);
    const projects = await db.query<{ id: string }>(
      `INSERT INTO projects (organization_id, owner_id, name, created_at)
       SELECT $1, $2, 'Fleet ' || lpad(i::text, 3, '0'), now() - make_interval(secs => $3 - i)
       FROM generate_series(0, $3 - 1) AS i
       RETURNING id`,
      [organizationId, owner.rows[0]!.id, PROJECTS],
    );
    const ids = projects.rows.map((r) => r.id);
    const big = ids[0]!;
    // 1,000 targets on the first project, the other 4,000 spread over the rest.
    await db.query(
      `INSERT INTO targets (project_id, name)
       SELECT $1::uuid, 'board-' || lpad(i::text, 4, '0') FROM generate_series(0, $2 - 1) AS i`,
      [big, BIG_PROJECT_TARGETS],
    );
    await db.query(
      `INSERT INTO targets (project_id, name)
       SELECT ($1::uuid[])[1 + i % (array_length($1::uuid[], 1))], 'variant-' || i
       FROM generate_series(0, $2 - 1) AS i`,
      [ids.slice(1), TARGETS - BIG_PROJECT_TARGETS],
    );
    return big;
  } finally {
    await db.end();
  }
}

async function timeLoad(page: Page, url: string, ready: () => Promise<void>): Promise<number> {
  await page.goto('about:blank');
  const start = Date.now();
  await page.goto(url);
  await ready();
  return Date.now() - start;
}

async function timeSearch(page: Page, box: string, text: string, ready: () => Promise<void>) {
  const input = page.getByLabel(box);
  await input.fill('');
  const start = Date.now();
  await input.fill(text);
  await ready();
  return Date.now() - start;
}

async function timeCall(page: Page, baseURL: string, path: string, token: string) {
  const start = Date.now();
  const response = await page.request.get(`${baseURL}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await response.body();
  return Date.now() - start;
}

test(`lists of an organisation with ${PROJECTS} projects and ${TARGETS} targets`, async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUpAndSignIn(page, baseURL!);
  const token = await accessToken(page);
  const created = await page.request.post(`${baseURL}/api/orgs`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Large fleet' },
  });
  const organization = ((await created.json()) as { data: { organization: { id: string } } }).data
    .organization.id;
  const big = await seed(email, organization);
  // The organisation chosen in the header; the data caches the app persisted while the account
  // was empty are dropped, as their lifetime would hide the rows written above.
  await page.evaluate(
    ([id, session]) => {
      for (const key of Object.keys(localStorage))
        if (key !== session) localStorage.removeItem(key);
      localStorage.setItem('memtrail_organization', id!);
    },
    [organization, SESSION_KEY],
  );

  const projectsReady = async () => {
    await expect(page.getByText(`${PROJECTS} projects in Large fleet`)).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.locator('.project-row')).toHaveCount(20);
  };
  const targetsReady = async () => {
    await expect(page.getByText(`${BIG_PROJECT_TARGETS} targets`)).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('.target-list li')).toHaveCount(50);
  };
  // Warm-up: the app's chunks and the persisted caches as a returning user has them.
  await timeLoad(page, '/', projectsReady);
  await timeLoad(page, `/project/${big}/targets`, targetsReady);

  const runs = {
    projects: [] as number[],
    projectSearch: [] as number[],
    targets: [] as number[],
    targetSearch: [] as number[],
  };
  for (let run = 0; run < RUNS; run++) {
    runs.projects.push(await timeLoad(page, '/', projectsReady));
    runs.projectSearch.push(
      await timeSearch(page, 'Search projects', `Fleet 4${run}`, async () => {
        await expect(page.getByText('10 projects in Large fleet', { exact: true })).toBeVisible();
      }),
    );
    runs.targets.push(await timeLoad(page, `/project/${big}/targets`, targetsReady));
    runs.targetSearch.push(
      await timeSearch(page, 'Search targets', `board-09${run}`, async () => {
        await expect(page.getByText('10 targets', { exact: true })).toBeVisible();
      }),
    );
  }
  const calls = {
    projects_all: [] as number[],
    projects_page: [] as number[],
    targets_all: [] as number[],
    targets_search: [] as number[],
  };
  for (let run = 0; run < RUNS; run++) {
    calls.projects_all.push(await timeCall(page, baseURL!, '/api/projects', token));
    calls.projects_page.push(
      await timeCall(page, baseURL!, '/api/projects?search=Fleet%204&limit=50', token),
    );
    calls.targets_all.push(await timeCall(page, baseURL!, `/api/${big}/targets`, token));
    calls.targets_search.push(
      await timeCall(page, baseURL!, `/api/${big}/targets?search=board-09&limit=50`, token),
    );
  }
  const summary = (values: number[]) => ({
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
  });
  const result = {
    date: new Date().toISOString(),
    projects: PROJECTS,
    targets: TARGETS,
    usable_ms: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, summary(v)])),
    calls_ms: Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, summary(v)])),
  };
  console.log(JSON.stringify(result, null, 2));
  writeFileSync(
    join(root, 'tests', 'test-results', 'lists-bench.json'),
    `${JSON.stringify(result, null, 2)}\n`,
  );
});
