import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUDGET_BREAKING_STEP, stm32Regions } from '@memtrail/local-stack';
import { createAccount, PASSWORD, signIn } from './support/account.ts';
import {
  boardVariant,
  LAB_STEPS,
  LARGE_SYMBOLS,
  uploadLabHistory,
  uploadLargeImage,
  waitUntilIngested,
  type LabCommit,
} from './support/lab-firmware.ts';

// The web app on firmware as real projects have it (tests/e2e/support/lab-firmware.ts): an RTOS
// board compiled at eight commits of its history — 24 regions, thirteen of them zero-length and
// several overlapping, its main regions renamed half-way, link-time optimisation, a function
// GCC clones for a while, a flash budget one commit breaks, every build in another checkout
// folder — and a 40k-symbol image, uploaded by the memtrail CLI. One test per finding of the
// review of the web app on real firmware, in Chromium at 1440×900 and 720×800, with screenshots
// kept in tests/test-results/screenshots and axe-core run on every main page.

const TARGET = 'stm32f407-lab';
const LARGE = 'stm32f407-large';
const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 720, height: 800 };
const screens = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'screenshots');

/** Regions of the board's linker script after the rename, by kind. */
const REGIONS = stm32Regions(true);
const ZERO_LENGTH = REGIONS.filter((r) => r.length === 0).map((r) => r.name);

// Each test walks several pages of a busy stack; the builds and uploads run once, before them.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let page: Page;
let token: string;
let projectId: string;
let apiKey: string;
let email: string;
let history: LabCommit[];
let large: LabCommit;

const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
  const response = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { data: body }),
  });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
};
const targetPath = (target = TARGET) =>
  `/project/${projectId}/target/${encodeURIComponent(target)}`;
const stepOf = (step: number) => history.find((commit) => commit.step === step)!;

/** A full-page screenshot at the current size, kept as an artifact and attached. */
async function screen(name: string): Promise<void> {
  const testInfo = test.info();
  const size = page.viewportSize()!;
  mkdirSync(screens, { recursive: true });
  const path = join(screens, `${name}-${size.width}x${size.height}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(`${name} ${size.width}×${size.height}`, { path, contentType: 'image/png' });
}

/** No part of the page is wider than the viewport: wide content scrolls inside its card. */
async function expectNoOverflow(): Promise<void> {
  const found = await page.evaluate(() => {
    const clipped = (element: Element) => {
      for (let e = element.parentElement; e; e = e.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX)) return true;
      }
      return false;
    };
    const sticking = Array.from(document.querySelectorAll('body *'))
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !clipped(e))
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
    return {
      page: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
      sticking: sticking.slice(0, 5),
    };
  });
  expect(
    found.page,
    `${page.url()} is ${found.page}px wide in a ${found.viewport}px window: ${found.sticking.join(', ')}`,
  ).toBeLessThanOrEqual(found.viewport);
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(900_000);
  // A context of its own: axe-core runs in pages of an explicit context.
  page = await (await browser.newContext({ viewport: WIDE })).newPage();
  email = `lab-${Date.now()}@example.com`;
  await createAccount(page, baseURL!, email, 'Lab Engineer');
  const login = await page.request.post('/auth/login', { data: { email, password: PASSWORD } });
  token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const project = await api<{ project: { id: string; api_key: string } }>('POST', '/api/projects', {
    name: 'ChibiOS lab',
    description: 'Real firmware, compiled here',
  });
  projectId = project.project.id;
  apiKey = project.project.api_key;
  history = await uploadLabHistory(baseURL!, apiKey, TARGET);
  large = await uploadLargeImage(baseURL!, apiKey, LARGE);
  await waitUntilIngested(
    page.request,
    token,
    projectId,
    TARGET,
    history.at(-1)!.sha,
    history.length,
  );
  await waitUntilIngested(page.request, token, projectId, LARGE, large.sha, 1);
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
});

test.afterAll(async () => {
  await page?.context().close();
});

test('12: the first upload says it is the first report; an unknown target says it does not exist', async () => {
  expect(history[0]!.output).toContain(': first report of this target');
  expect(history[1]!.output).toMatch(/: flash /);
  await page.goto(targetPath());
  await expect(
    page.getByRole('row').filter({ hasText: history[0]!.sha.slice(0, 8) }),
  ).toContainText('first report');
  await page.goto(targetPath('no-such-board'));
  await expect(
    page.getByRole('heading', { name: 'No target named “no-such-board”' }),
  ).toBeVisible();
  await expect(page.getByText('Dashboard Error')).toHaveCount(0);
  await expect(page.getByRole('link', { name: TARGET, exact: true })).toBeVisible();
});

test('4: zero-length placeholder regions are hidden until asked for', async () => {
  await page.goto(`${targetPath()}/commit/${history.at(-1)!.sha}`);
  await expect(page.getByRole('heading', { name: 'Memory layout' })).toBeVisible();
  const cards = page.locator('.usage__name');
  for (const name of ZERO_LENGTH) {
    await expect(cards.filter({ hasText: new RegExp(`^${name}$`) })).toHaveCount(0);
    await expect(page.getByRole('img', { name: `${name} layout` })).toHaveCount(0);
  }
  await expect(cards.filter({ hasText: /^flash0$/ })).toHaveCount(1);
  await page.getByRole('button', { name: /^Show \d+ empty or hidden regions$/ }).click();
  for (const name of ZERO_LENGTH)
    await expect(cards.filter({ hasText: new RegExp(`^${name}$`) })).toHaveCount(1);

  await page.goto(`${targetPath()}/region-config`);
  const rowName = (name: string) =>
    page.locator('tbody th strong', { hasText: new RegExp(`^${name}$`) });
  await expect(rowName('flash0')).toBeVisible();
  for (const name of ZERO_LENGTH) await expect(rowName(name)).toHaveCount(0);
  await page
    .getByRole('button', {
      name: `Show ${ZERO_LENGTH.length} zero-length placeholder regions (hidden unless shown here)`,
    })
    .click();
  for (const name of ZERO_LENGTH) await expect(rowName(name)).toBeVisible();

  // The compare page's regions table leaves them out as well.
  await page.goto(`${targetPath()}/compare?base=${history[0]!.sha}&head=${history.at(-1)!.sha}`);
  const compared = page
    .locator('.panel')
    .filter({ has: page.getByRole('heading', { name: 'Regions' }) });
  await expect(compared.getByRole('cell', { name: /^flash0( |$)/ })).toBeVisible();
  for (const name of ZERO_LENGTH)
    await expect(compared.getByRole('cell', { name: new RegExp(`^${name}( |$)`) })).toHaveCount(0);
});

test('1: the region config merges renamed regions, names, orders and limits them everywhere', async () => {
  // Unconfigured: the regions renamed in 2019 are two lines.
  await page.goto(targetPath());
  const legend = page.locator('.legend__item');
  await expect(legend.filter({ hasText: /^flash$/ })).toHaveCount(1);
  await expect(legend.filter({ hasText: /^flash0$/ })).toHaveCount(1);

  await page.goto(`${targetPath()}/region-config`);
  await page.getByLabel('flash shown as', { exact: true }).selectOption('flash0');
  await page.getByLabel('ram shown as', { exact: true }).selectOption('ram0');
  await page.getByLabel('flash0 display name', { exact: true }).fill('Main flash');
  await page.getByLabel('ram0 display name', { exact: true }).fill('SRAM');
  await page.getByLabel('ram0 order', { exact: true }).fill('0');
  await page.getByLabel('flash0 order', { exact: true }).fill('1');
  await page.getByLabel('ram0 limit', { exact: true }).fill(String(112 * 1024));
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Region configuration saved')).toBeVisible();

  // Dashboard: one line per memory, under its display name, in the configured order, with a
  // point at every commit; the merged flash keeps its history across the rename.
  await page.goto(targetPath());
  await expect(legend.first()).toHaveText('SRAM');
  await expect(legend.nth(1)).toHaveText('Main flash');
  await expect(legend.filter({ hasText: /^flash$/ })).toHaveCount(0);
  const flash = page.locator('.chart__line[data-region="flash0"]');
  const d = (await flash.getAttribute('d')) ?? '';
  expect((d.match(/[ML]/g) ?? []).length).toBe(history.length);
  await expect(page.getByRole('meter', { name: 'SRAM usage' })).toHaveAttribute(
    'aria-valuemax',
    String(112 * 1024),
  );
  await screen('dashboard');

  // Commit of before the rename: its flash is shown as the merged region.
  await page.goto(`${targetPath()}/commit/${history[0]!.sha}`);
  await expect(page.getByRole('meter', { name: 'Main flash usage' })).toBeVisible();
  await expect(page.locator('.usage__name').filter({ hasText: /^flash$/ })).toHaveCount(0);

  // Compare across the rename: one region row, no symbol moved for the rename alone.
  await page.goto(`${targetPath()}/compare?base=${history[0]!.sha}&head=${history.at(-1)!.sha}`);
  const regions = page
    .locator('.panel')
    .filter({ has: page.getByRole('heading', { name: 'Regions' }) });
  await expect(regions.getByRole('cell', { name: 'Main flash', exact: true })).toBeVisible();
  await expect(regions.getByRole('cell', { name: /^flash$/ })).toHaveCount(0);

  // The PR comment's summary (the CLI and the GitHub Action read it) shows the same: the
  // commit whose table grows the flash.
  const summary = await page.request.get(`/summary?commit=${stepOf(BUDGET_BREAKING_STEP).sha}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const target = (
    (await summary.json()) as {
      data: {
        targets: { changes_summary: { changes: { regions: { modified: { name: string }[] } } } }[];
      };
    }
  ).data.targets[0]!;
  const names = target.changes_summary.changes.regions.modified.map((r) => r.name);
  expect(names).toContain('Main flash');
  expect(names.filter((name) => /^flash\d?$/.test(name))).toEqual([]);
});

test('2: the dashboard tells a long story: regions that matter, years, round ticks, budgets', async () => {
  const breaking = stepOf(BUDGET_BREAKING_STEP);
  const limit = 48 * 1024;
  // 6: a budget on a region the target does not have is refused, naming the ones it has.
  const refused = await page.request.post(`/api/${projectId}/${TARGET}/budgets`, {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Release', limits: { FLASH: 480 * 1024 } },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toMatch(
    /^Budget region FLASH is not a region of target stm32f407-lab \(its regions: .*flash0.*\)$/,
  );
  await api('POST', `/api/${projectId}/${TARGET}/budgets`, {
    name: 'Release',
    limits: { flash0: limit },
  });

  await page.goto(targetPath());
  // Only regions something uses are lines; the others are one click away.
  const legend = page.locator('.legend__item');
  const used = await legend.count();
  expect(used).toBeLessThan(REGIONS.length / 2);
  await page.getByRole('button', { name: /^Show \d+ empty or hidden regions$/ }).click();
  await expect.poll(() => legend.count()).toBeGreaterThan(used);
  await page.getByRole('button', { name: /^Hide \d+ empty or hidden regions$/ }).click();

  // The time axis spans 2014-2023: its labels carry years.
  await expect(page.locator('.chart__line').first()).toBeVisible();
  const xLabels = await page.locator('.chart__label--x').allTextContents();
  expect(xLabels.some((label) => /20(1\d|2\d)/.test(label))).toBe(true);
  // Round byte ticks: whole units of the unit they are in.
  const yLabels = await page.locator('.chart__axis .chart__label').allTextContents();
  for (const label of yLabels)
    expect(label).toMatch(/^(\d{1,3}(,\d{3})* B|\d+ KiB|\d+\.\d KiB|\d+ MiB)$/);
  // The budget is a line on the flash band.
  await expect(page.locator('.chart__budget text')).toHaveText('budget Release 48.0 KiB');
  // "By commit": one even step per commit.
  await page.getByRole('radio', { name: 'By commit' }).check();
  await expect(page.locator('.chart__label--x').first()).toBeVisible();
  await page.getByRole('radio', { name: 'Time' }).check();
  await screen('dashboard-budget');

  // 6: the budget's state shows on the dashboard (head: within), the breaking commit (exceeded)
  // and the compare page with that commit as head.
  await expect(page.locator('.budgets-state')).toContainText('All within budget');
  await page.goto(`${targetPath()}/commit/${breaking.sha}`);
  await expect(page.locator('.budgets-state')).toContainText('1 exceeded');
  await expect(page.locator('.usage--over-budget')).toContainText('exceeded by');
  await page.goto(`${targetPath()}/compare?base=${stepOf(9).sha}&head=${breaking.sha}`);
  await expect(page.locator('.budgets-state')).toContainText('1 exceeded');
});

test('3: nothing is wider than the window; a menu button opens the navigation on narrow screens', async () => {
  const pages = {
    projects: '/',
    dashboard: targetPath(),
    commit: `${targetPath()}/commit/${history.at(-1)!.sha}`,
    compare: `${targetPath()}/compare?base=${history[0]!.sha}&head=${history.at(-1)!.sha}`,
    symbols: `${targetPath()}/symbols`,
    'region-config': `${targetPath()}/region-config`,
    settings: `/project/${projectId}/settings`,
  };
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoOverflow();
      await screen(name);
    }
  }
  // Narrow: the side menu is a drawer behind the menu button.
  await page.goto(targetPath());
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(page.getByRole('link', { name: 'Compare Builds' })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('link', { name: 'Compare Builds' }).click();
  await expect(page).toHaveURL(/\/compare/);
  await expect(page.getByRole('link', { name: 'Compare Builds' })).toBeHidden();
  await page.setViewportSize(WIDE);
});

test('5: a symbol keeps one history through its clones; 0-byte markers and moves hide no change', async () => {
  // chThdCreateStatic is cloned (.constprop.0) from 2016 to 2021.
  const cloned = LAB_STEPS.filter((step) => boardVariant(step).onePriority);
  expect(cloned.length).toBeGreaterThan(0);
  const history5 = await api<{
    size: number[];
    present: boolean[];
    names: string[][];
    appeared: { sha: string };
  }>('GET', `/api/${projectId}/${TARGET}/symbols/history?name=chThdCreateStatic&branch=main`);
  expect(history5.present).toEqual(history.map(() => true));
  expect(history5.size.every((size) => size > 0)).toBe(true);
  expect(history5.appeared.sha).toBe(history[0]!.sha);
  history.forEach((commit, i) => {
    expect(history5.names[i]).toEqual([
      boardVariant(commit.step).onePriority ? 'chThdCreateStatic.constprop.0' : 'chThdCreateStatic',
    ]);
  });
  await page.goto(`${targetPath()}/symbols?symbol=chThdCreateStatic`);
  await expect(
    page.getByRole('group', { name: 'Size history of chThdCreateStatic' }),
  ).toBeVisible();
  await expect(page.getByText('Followed through its other names:')).toContainText(
    'chThdCreateStatic.constprop.0',
  );

  // Adjacent commits: LTO's per-file markers change every build but are 0 bytes: not listed.
  const [before, after] = [history[0]!, history[1]!];
  await page.goto(`${targetPath()}/compare?base=${before.sha}&head=${after.sha}`);
  const changes = page.getByRole('table', { name: 'Symbol changes' });
  await expect(changes).toBeVisible();
  await expect(changes.getByText(/\.c\.[0-9a-f]{8}$/)).toHaveCount(0);
  const zero = page.getByLabel(/changes of 0-byte symbols/);
  await zero.click();
  await expect(page).toHaveURL(/zero=1/);
  await expect(zero).toBeChecked();
  await expect(changes.getByText(/\.c\.[0-9a-f]{8}$/).first()).toBeVisible();

  // Across the rename: sizes that changed are "modified", never hidden behind "moved".
  const diff = await api<{ diff: { symbols: { status: string; delta: number }[] } }>(
    'GET',
    `/api/${projectId}/${TARGET}/commit/${history[0]!.sha}/${history.at(-1)!.sha}`,
  );
  expect(diff.diff.symbols.filter((s) => s.status === 'moved' && s.delta !== 0)).toEqual([]);
});

test('7: a shared compare link opened signed out returns after sign-in, filters and search kept', async ({
  browser,
  baseURL,
}) => {
  const link = `${targetPath()}/compare?base=${history[0]!.sha}&head=${history.at(-1)!.sha}&q=thread&show=added,modified`;
  const visitor = await browser.newPage({ viewport: WIDE });
  try {
    await visitor.goto(link);
    await expect(visitor).toHaveURL((url) => url.pathname === '/');
    await visitor.goto('/auth');
    await expect(
      visitor.getByText('You will go on to the page you opened once you are signed in.'),
    ).toBeVisible();
    await visitor.getByLabel('Email').fill(email);
    await visitor.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await visitor.locator('form button[type="submit"]').click();
    await expect(visitor).toHaveURL(link);
    await expect(visitor.getByRole('searchbox', { name: 'Search symbol changes' })).toHaveValue(
      'thread',
    );
    await expect(visitor.getByRole('button', { name: /^removed/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(visitor.getByRole('button', { name: /^added/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  } finally {
    await visitor.close();
  }
  // Only paths of this origin are followed: another host's address stays unopened.
  await page.evaluate(() => sessionStorage.setItem('memtrail_return_to', '//evil.example/x'));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  expect(page.url()).toBe(`${baseURL}/`);
});

test('8: source paths are relative to the repository, whatever checkout folder built them', async () => {
  const head = history.at(-1)!;
  await page.goto(`${targetPath()}/commit/${head.sha}?q=chThdCreateStatic`);
  const symbols = page.getByRole('table', { name: 'Symbols' });
  await expect(symbols.getByText('os/rt/src/chthreads.c', { exact: true }).first()).toBeVisible();
  await expect(page.locator('.panel__hint').filter({ hasText: 'paths relative to' })).toContainText(
    `${head.checkout}/`,
  );
  // The treemap starts at the repository's folders, not the build machine's.
  await page.goto(`${targetPath()}/symbols`);
  const treemap = page.locator('.treemap');
  await expect(
    treemap.locator('title', { hasText: '› .text › os (directory)' }).first(),
  ).toBeAttached();
  await expect(
    treemap.locator('title', { hasText: '(directory)' }).filter({ hasText: 'tmp' }),
  ).toHaveCount(0);
});

test('9: treemap labels are readable, any commit can be picked, and growth has its own map', async () => {
  await page.goto(`${targetPath()}/symbols`);
  const labels = page.locator('.treemap__label');
  await expect(labels.first()).toBeVisible();
  // Every label against its own tile: WCAG contrast at least 4.5:1.
  const ratios = await page.locator('.treemap__tile').evaluateAll((tiles) => {
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/\d+(\.\d+)?/g) ?? [])
        .slice(0, 3)
        .map(Number)
        .map((c) => {
          const v = c / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return tiles.flatMap((tile) => {
      const text = tile.querySelector('text');
      const rect = tile.querySelector('rect');
      if (!text || !rect) return [];
      const [a, b] = [
        luminance(getComputedStyle(text).fill),
        luminance(getComputedStyle(rect).fill),
      ];
      return [(Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
    });
  });
  expect(ratios.length).toBeGreaterThan(5);
  expect(Math.min(...ratios)).toBeGreaterThanOrEqual(4.5);

  // Another commit through the picker; then the growth since the first one.
  await page.getByRole('combobox', { name: 'Commit' }).selectOption(history[2]!.sha);
  await expect(page).toHaveURL(new RegExp(`sha=${history[2]!.sha}`));
  await page.getByRole('combobox', { name: 'Growth since' }).selectOption(history[0]!.sha);
  await expect(page.getByText('red grew, green shrank, grey is unchanged')).toBeVisible();
  await expect(
    page
      .locator('.treemap__label')
      .filter({ hasText: /· [+−]/ })
      .first(),
  ).toBeVisible();
  await screen('symbols-growth');
});

test('10: a 40k-symbol build is paged by the server; its commit view and symbol analysis work', async () => {
  await page.goto(`${targetPath(LARGE)}/commit/${large.sha}`);
  const hint = page.locator('.panel__hint').filter({ hasText: ' symbols · ' });
  await expect(hint).toContainText(
    new RegExp(`of ${(LARGE_SYMBOLS / 1000).toFixed(0)},\\d{3} symbols`),
  );
  const table = page.getByRole('table', { name: 'Symbols' });
  const body = table.locator('.vtable__body');
  // The table holds every row's height and draws the ones in view, fetched as they come.
  await body.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await expect(table.locator('.vtable__row:not(.vtable__row--loading)').last()).toContainText('0x');
  await page.getByPlaceholder('Search symbols or files').fill('bulk_fn_3_4995');
  await expect(hint).toContainText(/^1 of /);
  await expect(table.getByText('bulk_fn_3_4995', { exact: true })).toBeVisible();
  await screen('commit-40k');

  await page.goto(`${targetPath(LARGE)}/symbols`);
  await expect(page.locator('.treemap')).toBeVisible();
  await page.getByPlaceholder('Symbol name, e.g. uart').fill('bulk_table_7_');
  await expect(page.locator('.found__item').first()).toBeVisible();
});

test('11: every main page passes axe-core, and the keyboard reaches everything', async () => {
  const pages = [
    '/',
    targetPath(),
    `${targetPath()}/commit/${history.at(-1)!.sha}`,
    `${targetPath()}/compare?base=${history[0]!.sha}&head=${history.at(-1)!.sha}`,
    `${targetPath()}/symbols`,
    `${targetPath()}/region-config`,
    `/project/${projectId}/settings`,
  ];
  for (const size of [WIDE, NARROW]) {
    await page.setViewportSize(size);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(
        violations.map(
          (v) =>
            `${path} ${size.width}px: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([]);
    }
  }
  await page.setViewportSize(WIDE);

  // The first Tab stop skips to the content.
  await page.goto(targetPath());
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  // The chart answers the arrow keys; Enter opens the commit.
  const chart = page.getByRole('group', { name: 'Region usage over commits' });
  await chart.focus();
  await expect(page.locator('.chart__tooltip')).toContainText(history.at(-1)!.sha.slice(0, 8));
  await page.keyboard.press('Home');
  await expect(page.locator('.chart__tooltip')).toContainText(history[0]!.sha.slice(0, 8));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/commit/${history[0]!.sha}$`));

  // Treemap tiles are buttons: Enter drills in.
  await page.goto(`${targetPath()}/symbols`);
  const tile = page.locator('.treemap__tile--d1[role="button"]').first();
  const name = ((await tile.getAttribute('aria-label')) ?? '').split(' (region)')[0]!;
  await tile.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Treemap level' })).toContainText(name);

  // Region config: a bad value is tied to its field.
  await page.goto(`${targetPath()}/region-config`);
  const limit = page.getByLabel('flash0 limit', { exact: true });
  await limit.fill('lots');
  await expect(limit).toHaveAttribute('aria-invalid', 'true');
  const described = await limit.getAttribute('aria-describedby');
  await expect(page.locator(`#${described}`)).toHaveText(
    'Region flash0: limit must be a non-negative integer number of bytes or null',
  );

  // Dialogs keep the focus; closing one returns it; a created project's key takes it.
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'New project' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(opener).toBeFocused();
  await opener.click();
  await dialog.getByLabel('Name').fill('Keyboard project');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByText('Your API key')).toBeFocused();
});
