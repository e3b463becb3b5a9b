import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '@memtrail/contracts';
import { signUpAndSignIn } from './support/account.ts';
import { buildHistory, uploadHistory } from './support/reports.ts';

// A project made public in its settings: its pages at their usual addresses for a signed-out
// visitor and for a signed-in stranger (read-only: no settings, no region config), its badge,
// and everything closed again the moment it is made private.

const TARGET = 'nrf52-sensor';
const COMMITS = 12;

/** Ticks or clears the Public switch of the settings page and saves. */
async function setPublic(owner: Page, projectId: string, value: boolean): Promise<void> {
  await owner.goto(`/project/${projectId}/settings`);
  const panel = owner.locator('section', {
    has: owner.getByRole('heading', { name: 'Public access' }),
  });
  await panel.getByRole('checkbox', { name: /^Public:/ }).setChecked(value);
  await panel.getByRole('button', { name: 'Save public access' }).click();
  await expect(panel.getByText('Saved')).toBeVisible();
}

/** The read-only side menu: the target pages, nothing of the project's administration. */
async function expectReadOnlyMenu(page: Page): Promise<void> {
  const menu = page.getByRole('navigation', { name: 'Project navigation' });
  await expect(menu.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Compare Builds' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Symbol Analysis' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Region Config' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await expect(menu.getByText('Public project · read-only')).toBeVisible();
}

test('a public project is readable signed out, has a badge, and closes again at once', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await signUpAndSignIn(page, baseURL!);
  await page.getByRole('button', { name: 'Create your first project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByLabel('Name').fill('Open sensor');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  const key = (await page.locator('.key-reveal code').innerText()).trim();
  await uploadHistory(baseURL!, key, TARGET, buildHistory(COMMITS, Date.now().toString(16)));
  await page.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(async () => {
    const again = page.getByRole('button', { name: 'Check again' });
    if (await again.isVisible()) await again.click();
    await expect(page.getByRole('link', { name: TARGET })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await page.getByRole('link', { name: TARGET }).click();
  await page.waitForURL(/\/project\/[0-9a-f-]{36}\/target\//);
  const projectId = /\/project\/([0-9a-f-]{36})\//.exec(page.url())![1]!;
  const dashboard = `/project/${projectId}/target/${TARGET}`;

  const visitor = await browser.newContext({ baseURL });
  const signedOut = await visitor.newPage();
  try {
    // Private: the project's address is any other path, and its badge shows nothing.
    await signedOut.goto(dashboard);
    await signedOut.waitForURL((url) => url.pathname === '/');
    const hidden = await signedOut.request.get(`/badge/${projectId}/${TARGET}.svg?region=FLASH`);
    expect(hidden.status()).toBe(404);

    await setPublic(page, projectId, true);
    const panel = page.locator('section', {
      has: page.getByRole('heading', { name: 'Public access' }),
    });
    await expect(
      panel.getByRole('link', { name: new RegExp(`/project/${projectId}$`) }),
    ).toBeVisible();
    await expect(panel.getByText(`/badge/${projectId}/${TARGET}.svg`)).toBeVisible();
    const preview = panel.getByRole('img', { name: `Memory badge of ${TARGET}` });
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    // Signed out: the dashboard, compare, symbols and a commit, read-only.
    await signedOut.goto(dashboard);
    await expect(
      signedOut.getByRole('heading', { name: 'Region usage over commits' }),
    ).toBeVisible();
    await expect(signedOut.locator('.chart__line')).toHaveCount(2, { timeout: 30_000 });
    await expect(signedOut.getByRole('link', { name: 'Sign In' })).toBeVisible();
    await expectReadOnlyMenu(signedOut);
    const menu = signedOut.getByRole('navigation', { name: 'Project navigation' });
    await expect(menu.getByText('Open sensor')).toBeVisible();
    await menu.getByRole('link', { name: 'Compare Builds' }).click();
    await expect(signedOut.getByText('Compare builds', { exact: true })).toBeVisible();
    await menu.getByRole('link', { name: 'Symbol Analysis' }).click();
    await expect(signedOut.getByText('Symbol analysis', { exact: true })).toBeVisible();
    await menu.getByRole('link', { name: 'Dashboard' }).click();
    await signedOut.getByRole('table').locator('tbody tr').first().locator('a').first().click();
    await expect(signedOut.getByText('Commit', { exact: true })).toBeVisible();
    await expect(signedOut).toHaveURL(/\/commit\/[0-9a-f]{40}$/);
    // The project's administration stays closed: those paths go home.
    for (const path of [`/project/${projectId}/settings`, `${dashboard}/region-config`]) {
      await signedOut.goto(path);
      await signedOut.waitForURL((url) => url.pathname === '/');
    }

    // The badge: the head of main's FLASH use, from the same public reads.
    const heads = (await (
      await signedOut.request.get(`/api/${projectId}/${TARGET}/heads`)
    ).json()) as {
      data: { heads: Array<{ branch: string; commit_sha: string }> };
    };
    const head = heads.data.heads.find((h) => h.branch === 'main')!;
    const report = (await (
      await signedOut.request.get(`/api/${projectId}/${TARGET}/commit/${head.commit_sha}`)
    ).json()) as {
      data: { regions: Array<{ name: string; used_size: number; limit_size: number }> };
    };
    const flash = report.data.regions.find((r) => r.name === 'FLASH')!;
    const message = `${((flash.used_size / flash.limit_size) * 100).toFixed(1)} % · ${formatBytes(flash.used_size)}`;
    const badge = await signedOut.request.get(`/badge/${projectId}/${TARGET}.svg?region=FLASH`);
    expect(badge.status()).toBe(200);
    expect(badge.headers()['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(badge.headers()['cache-control']).toBe('public, max-age=60');
    expect(await badge.text()).toContain(`<title>FLASH: ${message}</title>`);
    await signedOut.goto(`/badge/${projectId}/${TARGET}.svg?region=FLASH`);
    await expect(signedOut.locator('svg title')).toHaveText(`FLASH: ${message}`);

    // Signed in as someone else: the same read-only pages.
    const strangerContext = await browser.newContext({ baseURL });
    const stranger = await strangerContext.newPage();
    try {
      await signUpAndSignIn(stranger, baseURL!);
      await stranger.goto(dashboard);
      await expect(
        stranger.getByRole('heading', { name: 'Region usage over commits' }),
      ).toBeVisible();
      await expectReadOnlyMenu(stranger);
      await stranger.goto(`/project/${projectId}/settings`);
      await stranger.waitForURL(new RegExp(`/project/${projectId}/target/`));
    } finally {
      await strangerContext.close();
    }

    // Private again: closed at once, pages and badge alike.
    await setPublic(page, projectId, false);
    await signedOut.goto(dashboard);
    await signedOut.waitForURL((url) => url.pathname === '/');
    const closed = await signedOut.request.get(`/badge/${projectId}/${TARGET}.svg?region=FLASH`);
    expect(closed.status()).toBe(404);
  } finally {
    await visitor.close();
  }
});
