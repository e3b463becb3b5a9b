import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

test.describe('tutorial', () => {
  test('walks through project, key, secret, onboarding, pull requests and FAQ', async ({
    page,
  }) => {
    await page.goto('/tutorial');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Get started with Memtrail' }),
    ).toBeVisible();
    for (const step of [
      'Create a project',
      'Copy the API key',
      'Store it as a repository secret',
      'Onboard the last 50 commits',
      'Monitor pull requests',
      'FAQ',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: step })).toBeVisible();
    }
    await expect(page.getByText('It is shown once')).toBeVisible();
    const inputs = page.getByRole('table', { name: 'Onboarding inputs' });
    for (const input of ['num_commits', 'build_script', 'elf', 'ld', 'target_name', 'api_key']) {
      await expect(inputs.getByRole('cell', { name: input, exact: true })).toBeVisible();
    }
    await expect(page.getByText('npx memtrail onboard 50', { exact: false })).toBeVisible();
    await expect(page.getByText('MEMTRAIL_API_KEY').first()).toBeVisible();
    await page.getByText('Can I try it without uploading anything?').click();
    await expect(page.getByText('without --upload')).toBeVisible();
    await page.screenshot({ path: join(resultsDir, 'tutorial.png'), fullPage: true });
  });
});

test.describe('pricing', () => {
  test('loads lazily behind its own loading text', async ({ page }) => {
    // Hold the pricing chunk back so the loading state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/PricingPage-.*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/pricing');
    await expect(page.getByText('Loading pricing...')).toBeVisible();
    release();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Simple plans for firmware teams' }),
    ).toBeVisible();
    await expect(page.getByText('Loading pricing...')).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }),
    ).toHaveClass(/header__link--active/);
    await page.screenshot({ path: join(resultsDir, 'pricing.png'), fullPage: true });
  });

  test('a chunk that fails to load shows the Page Error screen', async ({ page }) => {
    await page.route(/PricingPage-.*\.js$/, (route) => route.abort());
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { name: 'Page Error' })).toBeVisible();
    await expect(
      page.getByText(
        'Something went wrong while loading this page. This could be due to a temporary issue or a problem with the page content.',
      ),
    ).toBeVisible();
    for (const name of ['Go Home', 'Refresh Page', 'Try Again']) {
      await expect(page.getByRole('button', { name })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Up and running in 4 steps' })).toBeVisible();
  });
});
