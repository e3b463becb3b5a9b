import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpAndSignIn } from './support/account.ts';
import { buildHistory, uploadBody, uploadHistory } from './support/reports.ts';

// Deleting projects, the error screens and the signed-in redirects of spec §2, on the running
// stack. One account per file: it is signed up once and every test starts from its session.

const TARGET = 'nrf52-probe';
const SESSION_KEY = 'memtrail_auth_session';

// Every test's browser starts from this file, written once the account is signed in.
const sessionFile = join(tmpdir(), `memtrail-e2e-projects-and-errors-${process.pid}.json`);
let session: Awaited<ReturnType<BrowserContext['storageState']>>;

test.use({ storageState: sessionFile });

test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
  });
  await signUpAndSignIn(await context.newPage(), baseURL!);
  // Only the session: the data caches the app persists would hide projects created through the
  // API below for their lifetime (projects: 30 minutes).
  const state = await context.storageState();
  session = {
    ...state,
    origins: state.origins.map((origin) => ({
      ...origin,
      localStorage: origin.localStorage.filter((item) => item.name === SESSION_KEY),
    })),
  };
  await writeFile(sessionFile, JSON.stringify(session));
  await context.close();
});

/** The signed-in user's access token, from the session the app keeps in local storage. */
function accessToken(): string {
  for (const origin of session.origins) {
    const entry = origin.localStorage.find((item) => item.name === SESSION_KEY);
    if (entry) return (JSON.parse(entry.value) as { access_token: string }).access_token;
  }
  throw new Error('No memtrail_auth_session in the signed-in browser state');
}

interface CreatedProject {
  id: string;
  name: string;
  api_key: string;
}

/** A project created through the API, as the projects page would, with its once-shown key. */
async function createProject(page: Page, name: string): Promise<CreatedProject> {
  const response = await page.request.post('/api/projects', {
    headers: { authorization: `Bearer ${accessToken()}` },
    data: { name, description: 'Created by the projects-and-errors spec' },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { data: { project: CreatedProject } }).data.project;
}

/** A project with a short history on TARGET, once the gateway lists its head. */
async function projectWithHistory(page: Page, baseURL: string, name: string) {
  const project = await createProject(page, name);
  await uploadHistory(baseURL, project.api_key, TARGET, buildHistory(3, Date.now().toString(16)));
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `/api/${project.id}/${encodeURIComponent(TARGET)}/heads`,
          { headers: { authorization: `Bearer ${accessToken()}` } },
        );
        return ((await response.json()) as { data?: { heads?: unknown[] } }).data?.heads?.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  return project;
}

test.describe('project deletion', () => {
  test('from the list: cancel keeps the project, confirming removes it, its pages and its key', async ({
    page,
    baseURL,
  }) => {
    const project = await projectWithHistory(page, baseURL!, `Doomed ${Date.now()}`);
    const upload = () =>
      page.request.post('/upload', {
        headers: { authorization: `Bearer ${project.api_key}` },
        data: uploadBody(buildHistory(1, 'beef01')[0]!, TARGET),
      });

    await page.goto('/');
    const row = page.locator('.project-row', { hasText: project.name });
    await expect(row.getByRole('link', { name: TARGET })).toBeVisible();

    await row.getByRole('button', { name: 'Delete' }).click();
    let dialog = page.getByRole('dialog', { name: `Delete ${project.name}?` });
    await expect(dialog.getByRole('button', { name: 'Delete project' })).toBeDisabled();
    await dialog.getByLabel('Project name').fill(project.name.slice(0, -1));
    await expect(dialog.getByRole('button', { name: 'Delete project' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: `Delete ${project.name}?` });
    await dialog.getByLabel('Project name').fill(project.name);
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
    await expect(row).toHaveCount(0);

    // Its pages are unknown paths now.
    await page.goto(`/project/${project.id}/target/${TARGET}`);
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/project/${project.id}/settings`);
    await expect(page).toHaveURL(/\/$/);

    const refused = await upload();
    expect(refused.status(), await refused.text()).toBe(401);
  });

  test('from the settings page: confirming goes back to the projects list', async ({ page }) => {
    const project = await createProject(page, `Settings doomed ${Date.now()}`);
    await page.goto(`/project/${project.id}/settings`);
    await expect(page.getByRole('heading', { name: project.name })).toBeVisible();
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${project.name}?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/settings$`));

    await page.getByRole('button', { name: 'Delete project' }).click();
    await dialog.getByLabel('Project name').fill(project.name);
    await dialog.getByRole('button', { name: 'Delete project' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
    await expect(page.locator('.project-row', { hasText: project.name })).toHaveCount(0);
  });
});

test('creating a project: name and description limits, Cancel creates nothing', async ({
  page,
}) => {
  const NAME_RULE =
    'Project name must be 2-100 characters and contain only letters, numbers, spaces, hyphens, underscores, and periods';
  await page.goto('/');
  await page.getByRole('button', { name: 'New project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  const create = dialog.getByRole('button', { name: 'Create project' });

  // Submitting untouched shows the name rule and blocks the submit.
  await create.click();
  await expect(dialog.getByText(NAME_RULE)).toBeVisible();
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill('radio<fw>');
  await expect(dialog.getByText(NAME_RULE)).toBeVisible();
  await dialog.getByLabel('Name').fill('x'.repeat(100));
  await expect(dialog.getByText(NAME_RULE)).toBeHidden();
  await expect(create).toBeEnabled();

  await dialog.getByLabel('Description (optional)').fill('d'.repeat(501));
  await expect(dialog.getByText('Project description cannot exceed 500 characters')).toBeVisible();
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Description (optional)').fill('d'.repeat(500));
  await expect(dialog.getByText('Project description cannot exceed 500 characters')).toBeHidden();
  await expect(create).toBeEnabled();

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(page.locator('.project-row', { hasText: 'x'.repeat(100) })).toHaveCount(0);
});

test.describe('error screens', () => {
  test('Dashboard Error: a failed data request, then Retry shows the dashboard', async ({
    page,
    baseURL,
  }) => {
    const project = await projectWithHistory(page, baseURL!, `Flaky ${Date.now()}`);
    const heads = new RegExp(`/api/${project.id}/${TARGET}/heads$`);
    await page.route(heads, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          status: 'error',
          type: 'InternalError',
          error: 'query service unavailable',
        }),
      }),
    );
    await page.goto(`/project/${project.id}/target/${TARGET}`);
    await expect(page.getByRole('heading', { name: 'Dashboard Error' })).toBeVisible();
    await expect(
      page.getByText(
        'There was an error loading the dashboard content. This might be due to data loading issues or a temporary problem.',
      ),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
    // Retry while the service still fails brings the screen back.
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard Error' })).toBeVisible();
    await page.unroute(heads);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Region usage over commits' })).toBeVisible();
    await expect(page.locator('.usage')).toHaveCount(2);
  });

  test('the dashboard spinner says Loading dashboard... while its data loads', async ({
    page,
    baseURL,
  }) => {
    const project = await projectWithHistory(page, baseURL!, `Slow ${Date.now()}`);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const heads = new RegExp(`/api/${project.id}/${TARGET}/heads$`);
    await page.route(heads, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/project/${project.id}/target/${TARGET}`);
    await expect(page.getByRole('status').getByText('Loading dashboard...')).toBeVisible();
    release();
    await expect(page.getByRole('heading', { name: 'Region usage over commits' })).toBeVisible();
  });

  test('the projects spinner says Loading projects... and a failed load offers Retry', async ({
    page,
  }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/projects$/, async (route) => {
      await held;
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', type: 'Unavailable', error: 'try later' }),
      });
    });
    await page.goto('/');
    await expect(page.getByRole('status').getByText('Loading projects...')).toBeVisible();
    release();
    await expect(page.getByText('Error: Unavailable: try later')).toBeVisible();
    await page.unroute(/\/api\/projects$/);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  });
});

test.describe('signed-in routing', () => {
  test('/auth and unknown paths go to the projects list', async ({ page }) => {
    for (const path of ['/auth', '/no-such-page', '/project']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
    }
  });

  test('a project path without a target opens its first target', async ({ page, baseURL }) => {
    const project = await projectWithHistory(page, baseURL!, `Targetless ${Date.now()}`);
    await page.goto(`/project/${project.id}`);
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/target/${TARGET}$`));
    await page.goto(`/project/${project.id}/settings`);
    const menu = page.getByRole('navigation', { name: 'Project navigation' });
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      `/project/${project.id}/target/${TARGET}`,
    );
  });

  test('an unknown project id goes to the projects list', async ({ page }) => {
    for (const path of [
      '/project/00000000-0000-0000-0000-000000000000/target/none',
      '/project/no-such-project/settings',
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
    }
  });
});
