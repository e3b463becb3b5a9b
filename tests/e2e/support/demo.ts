import { expect, type Page } from '@playwright/test';
import {
  DEMO,
  DEMO_COMMITS,
  DEMO_LINKER_SCRIPT,
  demoCommitSha,
  demoSources,
  demoVariant,
  type DemoTask,
} from '@memtrail/local-stack';

// The demo account that `npm run up` seeds: firmware compiled by the cross compiler and uploaded
// by the CLI. What the specs expect to see is derived from the same module the seed builds
// from, so a change to the demo firmware changes the expectations with it. Only reads: the demo
// project is shared by every test and every person using the local stack.

export { DEMO, DEMO_COMMITS, demoCommitSha, demoSources, demoVariant };

/** Index of the head commit of the demo branch. */
export const HEAD_STEP = DEMO_COMMITS.length - 1;

/** Functions with external linkage defined at `step`, by name → source path. */
export function demoFunctions(step: number): Map<string, string> {
  const found = new Map<string, string>();
  // A top-level definition `type name(args) {` that is not static: static helpers may be
  // inlined away by -O2, external ones are called from main or the vector table and stay.
  const definition = /^(?!static\b)\w[\w\s*]*?\b(\w+)\s*\([^;{]*\)\s*\{/gm;
  for (const [path, text] of Object.entries(demoSources(step))) {
    for (const match of text.matchAll(definition)) found.set(match[1]!, path);
  }
  return found;
}

/** Output sections and memory regions the demo linker script declares. */
export function demoLayout(): { sections: string[]; regions: string[] } {
  const sections = [...DEMO_LINKER_SCRIPT.matchAll(/^\s+(\.[\w.]+)\s*(?:\(NOLOAD\))?\s*:/gm)];
  const regions = [...DEMO_LINKER_SCRIPT.matchAll(/^\s+(\w+)\s*\([rwx]+\)\s*:/gm)];
  return { sections: sections.map((m) => m[1]!), regions: regions.map((m) => m[1]!) };
}

/** First step at which a variant flag is on, e.g. when `retries` appears. */
export function firstStepWith(flag: 'mqttRetries' | 'lutInFlash'): number {
  const step = DEMO_COMMITS.findIndex((_, index) => demoVariant(index)[flag]);
  if (step < 1) throw new Error(`demo history never switches ${flag} on after its first commit`);
  return step;
}

/** The task the commit at `step` adds to the scheduler (its message says which). */
export function addedTask(step: number): DemoTask {
  const before = new Set(demoVariant(step - 1).tasks.map((task) => task.name));
  const added = demoVariant(step).tasks.filter((task) => !before.has(task.name));
  if (added.length !== 1) throw new Error(`demo step ${step} adds ${added.length} tasks, not one`);
  return added[0]!;
}

/**
 * Signs in as the demo account through the sign-in form and opens the sensor node's dashboard.
 * Sign-ins are rate limited per account (10 per 15 minutes), so callers sign in once.
 */
export async function openDemoDashboard(page: Page): Promise<string> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  const project = page.getByRole('link', { name: DEMO.project, exact: true });
  await expect(
    project,
    `the demo project is missing: run npm run seed (needs arm-none-eabi-gcc)`,
  ).toHaveCount(1);
  // The project has several targets: open the sensor node's.
  await page
    .getByRole('listitem')
    .filter({ has: project })
    .getByRole('link', { name: DEMO.target, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`/target/${encodeURIComponent(DEMO.target)}$`));
  return page.url();
}
