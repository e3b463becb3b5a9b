import { expect, test } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

const SLIDES = ['Time Series Analysis', 'Commit History', 'Build Comparison', 'Symbol Analysis'];

test.describe('public home page', () => {
  test('shows every section and the shared footer', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const name of [
      'Memory creeps up one commit at a time',
      'Automated memory analysis for every commit',
      'Up and running in 4 steps',
      'Everything you need to keep firmware lean',
      'Ready to Get Started?',
    ]) {
      await expect(page.getByRole('heading', { name })).toBeVisible();
    }
    await expect(page.locator('.step')).toHaveCount(4);
    for (const feature of [
      'Time series charts',
      'Commit history correlation',
      'Compare any two builds',
      'Symbol analysis',
      'Memory layout visualization',
      'Multi-project support',
      'Secure API keys',
      'Works with any CI system',
    ]) {
      await expect(page.locator('.features').getByRole('heading', { name: feature })).toBeVisible();
    }
    await expect(
      page.getByText(
        'Join developers optimizing their embedded systems with automated memory analysis',
      ),
    ).toBeVisible();
    await expect(page.getByText(/© 2025/)).toBeVisible();
    await page.screenshot({ path: join(resultsDir, 'home.png'), fullPage: true });

    await page.locator('.footer').getByRole('link', { name: 'Start Free Today' }).click();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the header shows Sign In and highlights the active page', async ({ page }) => {
    await page.goto('/tutorial');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Tutorial' })).toHaveClass(/header__link--active/);
    await expect(nav.getByRole('link', { name: 'Pricing' })).not.toHaveClass(/active/);
    await page.locator('.header').getByRole('link', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.getByRole('link', { name: 'Memtrail home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('carousel wraps both ways and every slide image loads', async ({ page }) => {
    await page.goto('/');
    const caption = page.locator('.carousel__caption h3');
    await expect(caption).toHaveText(SLIDES[0]!);
    await page.getByRole('button', { name: 'Previous screenshot' }).click();
    await expect(caption).toHaveText(SLIDES[3]!);
    await page.getByRole('button', { name: 'Next screenshot' }).click();
    await expect(caption).toHaveText(SLIDES[0]!);
    for (const title of SLIDES) {
      await page.locator('.carousel').getByRole('button', { name: title, exact: true }).click();
      const image = page.locator('.carousel__frame img');
      await expect(image).toHaveAttribute('alt', title);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
  });

  test('full-screen viewer: arrows move with wrap-around, dots jump, Escape closes', async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByRole('button', { name: `Open ${SLIDES[0]} full screen` }).click();
    const viewer = page.getByRole('dialog');
    await expect(viewer).toHaveAccessibleName(`${SLIDES[0]} screenshot`);
    await page.keyboard.press('ArrowLeft');
    await expect(viewer).toHaveAccessibleName(`${SLIDES[3]} screenshot`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(viewer).toHaveAccessibleName(`${SLIDES[1]} screenshot`);
    await viewer.getByRole('button', { name: SLIDES[2], exact: true }).click();
    await expect(viewer).toHaveAccessibleName(`${SLIDES[2]} screenshot`);
    await expect(viewer.getByText('3 / 4')).toBeVisible();
    await page.screenshot({ path: join(resultsDir, 'home-viewer.png') });
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    // The carousel stays on the slide the viewer ended on.
    await expect(page.locator('.carousel__caption h3')).toHaveText(SLIDES[2]!);
  });

  test('an unknown path ends on the home page', async ({ page }) => {
    await page.goto('/no-such-page');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Up and running in 4 steps' })).toBeVisible();
  });

  test('project pages redirect to the home page when signed out', async ({ page }) => {
    await page.goto('/project/1/target/stm32');
    await expect(page).toHaveURL(/\/$/);
  });
});
