import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCREENSHOT_SIZE, SLIDES } from '../../../web/src/pages/home/slides.ts';
import { demoCommitSha, firstStepWith, openDemoDashboard } from '../support/demo.ts';

// The home page's carousel images are screenshots of the product on the demo account's real
// firmware history, taken from the running stack (`npm run up`). Each slide's file name comes
// from the carousel's own slide list, so a slide cannot point at an image nobody captures.

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'web', 'public');
// The window is SCREENSHOT_SIZE / SCALE CSS pixels, captured at SCALE so text stays sharp in
// the full-screen viewer.
const SCALE = 1.5;
const WEBP_QUALITY = 80;

const viewport = { width: SCREENSHOT_SIZE.width / SCALE, height: SCREENSHOT_SIZE.height / SCALE };
test.use({ viewport });

/** Scrolls so `panel` starts just below the sticky header. */
async function scrollTo(panel: Locator): Promise<void> {
  await panel.evaluate((element) => {
    const header = document.querySelector('.header')?.getBoundingClientRect().bottom ?? 0;
    window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY - header - 16 });
  });
}

/** Brings the page to what one slide shows; the dashboard is open when each starts. */
const SCREENS: Record<string, (page: Page, dashboard: string) => Promise<void>> = {
  'Time Series Analysis': async (page) => {
    const chart = page.getByRole('img', { name: 'Region usage over commits' });
    await expect(page.locator('.chart__line').first()).toBeVisible();
    const box = (await chart.boundingBox())!;
    // Hover a commit near the right so the tooltip shows its figures and deltas.
    await page.mouse.move(box.x + box.width * 0.72, box.y + box.height / 2);
    await expect(page.locator('.chart__tooltip')).toBeVisible();
  },
  'Commit History': async (page) => {
    const history = page.locator('.panel').filter({ hasText: 'Commit history' });
    await expect(history.locator('tbody tr').first()).toBeVisible();
    await scrollTo(history);
  },
  'Build Comparison': async (page, dashboard) => {
    // A range where the firmware gains MQTT retries and moves its lookup table to flash.
    const base = demoCommitSha(firstStepWith('mqttRetries') - 1);
    const head = demoCommitSha(firstStepWith('lutInFlash'));
    await page.goto(`${dashboard}/compare?base=${base}&head=${head}`);
    const changes = page.getByRole('table', { name: 'Symbol changes' });
    await expect(changes.getByRole('row').nth(1)).toBeVisible();
    // Section and symbol changes, the part the slide describes.
    await scrollTo(
      page.locator('.panel').filter({ has: page.getByRole('heading', { name: 'Sections' }) }),
    );
  },
  'Symbol Analysis': async (page) => {
    await page.getByRole('link', { name: 'Symbol Analysis' }).click();
    await expect(page.locator('.treemap')).toBeVisible();
    await page.getByPlaceholder('Symbol name, e.g. uart').fill('uart');
    await page.locator('.found__item').first().click();
    await expect(page.getByRole('img', { name: /^Size history of / })).toBeVisible();
    await scrollTo(page.locator('.panel').filter({ has: page.locator('.treemap') }));
  },
};

test('home carousel screenshots from the demo firmware', async ({ page }) => {
  const dashboard = await openDemoDashboard(page);
  const cdp = await page.context().newCDPSession(page);
  for (const slide of SLIDES) {
    const prepare = SCREENS[slide.title];
    if (!prepare) throw new Error(`no capture defined for the carousel slide "${slide.title}"`);
    if (!slide.src.endsWith('.webp')) throw new Error(`${slide.src}: slides are WebP captures`);
    await page.goto(dashboard);
    await prepare(page, dashboard);
    // Chromium encodes WebP itself, so no image library is needed. The clip is the window in
    // page coordinates, scaled up to the image size.
    const { x, y } = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
    const { data } = await cdp.send('Page.captureScreenshot', {
      format: 'webp',
      quality: WEBP_QUALITY,
      clip: { x, y, width: viewport.width, height: viewport.height, scale: SCALE },
    });
    const file = join(publicDir, slide.src);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from(data, 'base64'));
    console.log(`${slide.src}: ${(statSync(file).size / 1024).toFixed(0)} KiB`);
  }
});
