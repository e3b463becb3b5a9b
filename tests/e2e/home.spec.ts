import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

// Every service the gateway's /readyz reports on; the panel must show each of them as up.
const DEPENDENCIES = ['postgres', 'redis', 'clickhouse', 'query'];

test.describe('home page', () => {
  test('renders the product name and pitch', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Memtrail' })).toBeVisible();
    await expect(page.getByText('across commits')).toBeVisible();
  });

  test('status panel shows every dependency as up', async ({ page }) => {
    await page.goto('/');
    const panel = page.getByRole('region', { name: 'Service status' });
    await expect(panel).toBeVisible();
    for (const dependency of DEPENDENCIES) {
      // The panel polls /readyz; a freshly started stack may need a few polls to settle.
      await expect(panel.locator(`[data-dependency="${dependency}"]`)).toHaveAttribute(
        'data-state',
        'up',
        { timeout: 20_000 },
      );
    }
    await expect(panel.getByRole('status')).toHaveText('All systems operational');
    await page.screenshot({ path: join(resultsDir, 'home.png'), fullPage: true });
  });

  test('an unknown path ends on the home page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Memtrail' })).toBeVisible();
  });
});
