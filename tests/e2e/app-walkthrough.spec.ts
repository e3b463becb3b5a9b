import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signUpAndSignIn } from './support/account.ts';
import { buildHistory, uploadHistory } from './support/reports.ts';

// The signed-in product end to end on the running stack: a new account creates a project, CI
// uploads a history with the key shown once, and the engineer walks every project page.

const shots = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
const TARGET = 'stm32f4-app';
const COMMITS = 60;

test('projects → dashboard → commit → compare → symbols → region config → settings', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpAndSignIn(page, baseURL!);

  // Empty state points to the tutorial.
  await expect(page.getByText('No projects yet')).toBeVisible();
  await expect(page.locator('.empty').getByRole('link', { name: 'tutorial' })).toBeVisible();

  // Create: validation message, then the key shown once with a copy button.
  await page.getByRole('button', { name: 'Create your first project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Name').fill('x');
  await dialog.getByLabel('Name').blur();
  await expect(
    dialog.getByText(
      'Project name must be 2-100 characters and contain only letters, numbers, spaces, hyphens, underscores, and periods',
    ),
  ).toBeVisible();
  await dialog.getByLabel('Name').fill('Sensor node');
  await dialog.getByLabel('Description (optional)').fill('STM32F4 environmental sensor');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  const key = (await page.locator('.key-reveal code').innerText()).trim();
  expect(key).toMatch(/^mt_/);
  await expect(page.locator('.key-reveal').getByRole('button', { name: 'Copy' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'app-projects-key.png') });

  const history = buildHistory(COMMITS, Date.now().toString(16));
  await uploadHistory(baseURL!, key, TARGET, history);
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(page.locator('.key-reveal')).toHaveCount(0);

  // Dashboard: the target appears once the upload is ingested.
  await expect(async () => {
    // Targets are cached for 10 minutes; the empty state offers a forced refresh.
    const again = page.getByRole('button', { name: 'Check again' });
    if (await again.isVisible()) await again.click();
    await expect(page.getByRole('link', { name: TARGET })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('link', { name: TARGET }).click();
  await expect(page.getByRole('heading', { name: 'Region usage over commits' })).toBeVisible();
  await expect(page.locator('.chart__line')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('.usage')).toHaveCount(2);
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
  const chart = page.locator('.chart__svg').first();
  const box = (await chart.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2);
  await expect(page.locator('.chart__tooltip')).toBeVisible();
  await page.screenshot({ path: join(shots, 'app-dashboard.png'), fullPage: true });

  // Only-changed toggle and pagination over the 60-commit chain.
  await page.getByLabel('Only commits that changed the footprint').uncheck();
  await expect(page.getByText(/Page 1 of 2/)).toBeVisible();
  await page.getByRole('button', { name: 'Older →' }).click();
  await expect(page.getByText(/Page 2 of 2/)).toBeVisible();

  // Commit view from the chart; paging may have scrolled it, so it is measured again.
  await chart.scrollIntoViewIfNeeded();
  const at = (await chart.boundingBox())!;
  await page.mouse.click(at.x + at.width * 0.98, at.y + at.height / 2);
  await expect(page).toHaveURL(/\/commit\//);
  await expect(page.getByRole('heading', { name: 'Memory layout' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Symbols' })).toBeVisible();
  await page.getByPlaceholder('Search symbols or files').fill('uart<');
  await expect(
    page.getByText(
      'Search query must contain only letters, numbers, spaces, hyphens, underscores, and periods',
    ),
  ).toBeVisible();
  await page.getByPlaceholder('Search symbols or files').fill('uart');
  await expect(
    page
      .getByRole('table', { name: 'Symbols' })
      .getByText(/^uart_/)
      .first(),
  ).toBeVisible({
    timeout: 90_000, // the newest report may still be in the ingest queue
  });
  await page.screenshot({ path: join(shots, 'app-commit.png'), fullPage: true });

  // Compare with the parent: shareable URL with base and head.
  await page.getByRole('link', { name: 'Compare with parent' }).click();
  await expect(page).toHaveURL(/compare\?base=[0-9a-f]{40}&head=[0-9a-f]{40}/);
  await expect(page.getByRole('heading', { name: 'Symbol changes' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'app-compare.png'), fullPage: true });
  const shared = page.url();
  await page.goto(shared);
  await expect(page.getByRole('heading', { name: 'Regions' })).toBeVisible();

  // Symbol analysis: treemap, search, history.
  await page.getByRole('link', { name: 'Symbol Analysis' }).click();
  await expect(page.locator('.treemap')).toBeVisible({ timeout: 30_000 });
  await page.getByPlaceholder('Symbol name, e.g. uart').fill('mqtt_process');
  await page.locator('.found__item').first().click();
  await expect(page.getByRole('group', { name: /Size history of mqtt_process/ })).toBeVisible();
  await page.screenshot({ path: join(shots, 'app-symbols.png'), fullPage: true });

  // Region config: validation from the contracts schema, then a save.
  await page.getByRole('link', { name: 'Region Config' }).click();
  await page.getByLabel('FLASH display name').fill('Internal flash');
  await page.getByLabel('FLASH limit').fill('abc');
  await expect(page.getByText(/limit must be a non-negative integer/)).toBeVisible();
  await page.getByLabel('FLASH limit').fill('262144');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Region configuration saved')).toBeVisible();

  // Settings: budget, regenerate key (shown once), members.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Add budget' }).click();
  await page.getByPlaceholder('Release budget').fill('Release');
  await page.getByPlaceholder('main').fill('main');
  await page.getByLabel('Limits, one region per line').fill('FLASH=200K\nRAM=48K');
  await page.getByRole('button', { name: 'Save budget' }).click();
  await expect(page.getByText('FLASH ≤ 200 KiB')).toBeVisible();
  await page.getByRole('button', { name: 'Regenerate key' }).click();
  await page.getByRole('button', { name: 'Regenerate', exact: true }).click();
  const fresh = (await page.locator('.key-reveal code').innerText()).trim();
  expect(fresh).toMatch(/^mt_/);
  expect(fresh).not.toBe(key);
  await expect(page.getByText('Ada Lovelace', { exact: true })).toBeVisible();
  await page.screenshot({ path: join(shots, 'app-settings.png'), fullPage: true });
});
