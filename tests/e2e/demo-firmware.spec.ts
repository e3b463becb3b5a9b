import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { formatBytes, formatDelta } from '../../web/src/lib/format.ts';
import {
  addedTask,
  DEMO_COMMITS,
  demoCommitSha,
  demoFunctions,
  demoLayout,
  demoSources,
  demoVariant,
  firstStepWith,
  HEAD_STEP,
  openDemoDashboard,
} from './support/demo.ts';

// The product on real firmware: the demo history that `npm run up` builds with
// arm-none-eabi-gcc and uploads with the memtrail CLI. Every expectation is derived from the
// firmware sources and linker script the seed compiled. Read-only: the demo project is shared.

const short = (sha: string) => sha.slice(0, 8);

/** Vertices of an SVG path drawn by d3.line (straight segments: one M or L per point). */
async function pathPoints(path: Locator): Promise<number> {
  const d = (await path.getAttribute('d')) ?? '';
  return (d.match(/[ML]/g) ?? []).length;
}

/** Heights (SVG y) of the vertices of a d3.line path, one per point. */
async function pathHeights(path: Locator): Promise<number[]> {
  const d = (await path.getAttribute('d')) ?? '';
  return [...d.matchAll(/[ML][-\d.e]+,([-\d.e]+)/g)].map((match) => Number(match[1]));
}

/** A full-page screenshot kept as a file in the test's artifacts and linked from the report. */
async function attachScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const row = (table: Locator, name: string) =>
  table.getByRole('row').filter({ has: table.page().getByText(name, { exact: true }) });

test('demo firmware: dashboard → commit → compare → symbol analysis on CLI uploads', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDemoDashboard(page);
  const commits = DEMO_COMMITS.length;
  const head = demoCommitSha(HEAD_STEP);
  const parent = demoCommitSha(HEAD_STEP - 1);
  const { sections, regions } = demoLayout();

  // Dashboard: one point per demo commit on every region's line, and the history with deltas.
  await expect(page.getByRole('heading', { name: 'Region usage over commits' })).toBeVisible();
  const lines = page.locator('.chart__line');
  await expect(lines).toHaveCount(regions.length);
  for (const line of await lines.all()) expect(await pathPoints(line)).toBe(commits);
  await expect(page.getByText(`${commits} commits ·`)).toBeVisible();
  for (const region of regions) {
    await expect(page.getByRole('meter', { name: `${region} usage` })).toBeVisible();
  }
  const history = page.locator('.panel').filter({ hasText: 'Commit history' }).getByRole('table');
  // Every demo commit changes RAM or flash, so the "only changed" default still lists them all.
  await expect(history.locator('tbody tr')).toHaveCount(commits);
  for (const [step, message] of DEMO_COMMITS.entries()) {
    const line = history.locator('tbody tr').filter({ hasText: short(demoCommitSha(step)) });
    await expect(line).toContainText(message);
    if (step > 0) await expect(line.locator('.chg').first()).toBeVisible();
  }
  // The head adds a scheduler task and nothing else: RAM grows by exactly its stack.
  const task = addedTask(HEAD_STEP);
  expect(DEMO_COMMITS[HEAD_STEP].toLowerCase()).toContain(`add ${task.name} task`);
  expect(demoVariant(HEAD_STEP).rxBufferBytes).toBe(demoVariant(HEAD_STEP - 1).rxBufferBytes);
  const columns = await history.locator('thead th').allInnerTexts();
  const ramColumn = columns.indexOf('RAM');
  expect(ramColumn, 'the history has a RAM column').toBeGreaterThan(0);
  const headRow = history.locator('tbody tr').filter({ hasText: short(head) });
  await expect(headRow.locator('td').nth(ramColumn).locator('.chg')).toHaveText(
    formatDelta(task.stackBytes),
  );

  // Scale "Usage" (the default) fits each region's axis to its used bytes: every commit that
  // changed a region moves its line visibly, every other commit keeps it level.
  await expect(page.getByRole('radio', { name: 'Usage' })).toBeChecked();
  for (const region of regions) {
    const column = columns.indexOf(region);
    expect(column, `the history has a ${region} column`).toBeGreaterThan(0);
    const heights = await pathHeights(page.locator(`.chart__line[data-region="${region}"]`));
    expect(heights).toHaveLength(commits);
    for (let step = 1; step < commits; step++) {
      const cell = history
        .locator('tbody tr')
        .filter({ hasText: short(demoCommitSha(step)) })
        .locator('td')
        .nth(column);
      const changed = (await cell.locator('.chg').count()) > 0;
      const rise = Math.abs(heights[step]! - heights[step - 1]!);
      const what = `${region} at "${DEMO_COMMITS[step]}"`;
      if (changed) expect(rise, what).toBeGreaterThanOrEqual(2);
      else expect(rise, what).toBe(0);
    }
  }
  // The choice is a keyboard-operable radio group, remembered across visits; "Limits" draws
  // every region's limit on one axis from zero.
  await page.getByRole('radio', { name: 'Usage' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Limits' })).toBeChecked();
  await expect(page.locator('.chart__limit')).toHaveCount(regions.length);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Limits' })).toBeChecked();
  await page.getByRole('radio', { name: 'Usage' }).check();
  await expect(page.getByRole('radio', { name: 'Usage' })).toBeChecked();
  await attachScreen(page, testInfo, 'dashboard');

  // Commit view of the head: region bars, layout map, every linked section, real functions.
  await history.getByRole('link', { name: short(head) }).click();
  await expect(page).toHaveURL(new RegExp(`/commit/${head}$`));
  await expect(page.locator('.page__lead')).toHaveText(DEMO_COMMITS[HEAD_STEP]!);
  for (const region of regions) {
    await expect(page.getByRole('meter', { name: `${region} usage` })).toBeVisible();
    await expect(page.getByRole('img', { name: `${region} layout` })).toBeVisible();
  }
  await expect(page.locator('.layout-map__bar rect[fill]').first()).toBeVisible();
  const sectionTable = page.locator('.panel').filter({ hasText: 'Sections' }).getByRole('table');
  for (const section of sections) {
    await expect(sectionTable.locator('td.mono', { hasText: section }).first()).toHaveText(section);
  }
  const symbols = page.getByRole('table', { name: 'Symbols' });
  const functions = demoFunctions(HEAD_STEP);
  expect(functions.size).toBeGreaterThan(3);
  const search = page.getByPlaceholder('Search symbols or files');
  const shown = page.locator('.panel').filter({ has: symbols }).locator('.panel__hint');
  // "Loading symbols…" first, then the count of the report's symbols.
  await expect(shown).toHaveText(/^[\d,]+ of [\d,]+ symbols/);
  const unfiltered = await shown.innerText();
  for (const [name, file] of functions) {
    // The table only draws the rows in view: filter it down to the function first.
    await search.fill(name);
    const line = row(symbols, name);
    await expect(line).toHaveCount(1);
    await expect(line).toContainText('FUNC');
    await expect(line).toContainText('.text');
    await expect(line).toContainText(file);
  }
  await search.fill('');
  await expect(shown).toHaveText(unfiltered);
  await attachScreen(page, testInfo, 'commit');
  // The UART driver's write function: its code follows the receive buffer's size.
  const uartFile = 'src/drivers/uart.c';
  const [needle, needleFile] = [...functions].find(([, file]) => file === uartFile)!;
  const allRows = await symbols.locator('.vtable__row').count();
  await search.fill(needle);
  await expect(symbols.locator('.vtable__row')).not.toHaveCount(allRows);
  for (const line of await symbols.locator('.vtable__row').all()) {
    // A row matches by symbol name or by source file.
    const text = (await line.innerText()).toLowerCase();
    expect(text.includes(needle.toLowerCase()) || text.includes(needleFile)).toBe(true);
  }
  await expect(row(symbols, needle)).toHaveCount(1);

  // Compare head with its parent: the task the head added, its stack and entry function.
  const changes = page.getByRole('table', { name: 'Symbol changes' });
  await page.getByRole('link', { name: 'Compare with parent' }).click();
  await expect(page).toHaveURL(new RegExp(`compare\\?base=${parent}&head=${head}$`));
  expect(demoSources(HEAD_STEP)['lib/rtos/tasks.c']).toContain(
    `${task.name}_stack[${task.stackBytes / 8}]`,
  );
  const stack = row(changes, `${task.name}_stack`);
  await expect(stack).toContainText('added');
  await expect(stack).toContainText(formatBytes(task.stackBytes));
  await expect(row(changes, `${task.name}_task`)).toContainText('added');
  await attachScreen(page, testInfo, 'compare-parent');

  // A wider range through the pickers: MQTT retries add a counter, the const lookup table moves
  // from RAM to flash.
  const retriesFrom = firstStepWith('mqttRetries');
  const lutFrom = firstStepWith('lutInFlash');
  expect(demoSources(retriesFrom)['src/net/mqtt.c']).toContain('static int retries;');
  expect(demoSources(lutFrom)['src/sensors/adc.c']).toContain('static const short lut');
  await page.getByRole('combobox', { name: 'Base' }).selectOption(demoCommitSha(retriesFrom - 1));
  await page.getByRole('combobox', { name: 'Head' }).selectOption(demoCommitSha(lutFrom));
  await expect(row(changes, 'retries')).toContainText('added');
  await expect(row(changes, 'lut')).toContainText('moved');
  await expect(row(changes, 'lut')).toContainText('.data → .rodata');
  await attachScreen(page, testInfo, 'compare-range');

  // Symbol analysis: treemap levels region → section → directories → file, search, history.
  await page.getByRole('link', { name: 'Symbol Analysis' }).click();
  const treemap = page.locator('.treemap');
  await expect(treemap).toBeVisible();
  for (const region of regions) {
    await expect(
      treemap.locator('title', { hasText: new RegExp(`^${region} \\(region\\)`) }),
    ).toHaveCount(1);
  }
  for (const section of ['.text', '.bss']) {
    await expect(
      treemap.locator('title', { hasText: `› ${section} (section)` }).first(),
    ).toBeAttached();
  }
  await treemap
    .locator('.treemap__tile--d1')
    .filter({ has: page.locator('title', { hasText: /^RAM \(region\)/ }) })
    .click({ position: { x: 6, y: 6 } });
  await expect(page.getByRole('navigation', { name: 'Treemap level' })).toContainText('RAM');
  await expect(page.getByRole('group', { name: 'Treemap of RAM' })).toBeVisible();
  // Inside RAM the four levels reach the files: .bss › src › drivers › uart.c.
  await expect(
    treemap.locator('title', { hasText: `.bss › ${uartFile.split('/').join(' › ')} (file)` }),
  ).toHaveCount(1);
  await attachScreen(page, testInfo, 'symbols-treemap');

  await page.getByPlaceholder('Symbol name, e.g. uart').fill(needle);
  const found = page.locator('.found__item').filter({ hasText: needle }).first();
  await expect(found).toContainText(needleFile.split('/').pop()!);
  await found.click();
  const chart = page.getByRole('group', { name: `Size history of ${needle}` });
  await expect(chart).toBeVisible();
  // The function exists in every demo commit: one point each.
  expect(await pathPoints(chart.locator('.chart__line'))).toBe(commits);
  await attachScreen(page, testInfo, 'symbol-history');
});
