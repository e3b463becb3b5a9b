import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createAccount, mailedLink, signIn, signUpAndSignIn } from './support/account.ts';

// Organisations in Chromium: the header's organisation switcher, members and invitations (the
// invitee signs up through the mailed link and accepts), named API keys and their rotation, and
// the audit log with its filters and export.

test('organisations: switcher, invitations, members, keys and the audit log', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(page, baseURL!);
  const stamp = Date.now();
  const team = `Firmware Team ${stamp}`;

  async function createProject(name: string) {
    await page.goto('/');
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await expect(page.getByText(`Project “${name}” created`)).toBeVisible();
    await page.getByRole('button', { name: 'I have stored the key' }).click();
  }

  // With no organisation chosen, a project goes to the personal organisation.
  await page.goto('/');
  await page
    .getByRole('button', { name: /New project|Create your first project/ })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'New project' }).getByLabel('Name').fill('Solo board');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.getByRole('button', { name: 'I have stored the key' }).click();

  // A new organisation, chosen in the header; a project created while it is chosen lands in it.
  await page.goto('/organization');
  await page.getByLabel('Organization name').fill(team);
  await page.getByRole('button', { name: 'Create organization' }).click();
  const switcher = page.getByLabel('Organization', { exact: true });
  await switcher.selectOption({ label: team });
  await expect(page.getByRole('heading', { name: team })).toBeVisible();
  await createProject('Team board');
  await expect(page.getByText(`${team} · owner`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Solo board' })).toHaveCount(0);
  await switcher.selectOption({ label: 'Ada Lovelace (personal)' });
  await expect(page.getByText('Solo board')).toBeVisible();
  await expect(page.getByText('Team board')).toHaveCount(0);
  await switcher.selectOption({ label: 'All organizations' });
  await expect(page.getByText('Solo board')).toBeVisible();
  await expect(page.getByText('Team board')).toBeVisible();
  await switcher.selectOption({ label: team });

  // Invite a colleague as admin; the mailed link is resent, then followed by the colleague.
  await page.goto('/organization');
  const colleague = `colleague-${stamp}@example.com`;
  await page.getByLabel('Invite by email').fill(colleague);
  await page.getByLabel('Role', { exact: true }).selectOption('admin');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${colleague}`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(colleague) });
  await expect(row.getByText('pending')).toBeVisible();
  const first = await mailedLink(colleague, '/invitations/');
  await row.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText(`Invitation sent again to ${colleague}`)).toBeVisible();
  let link = first;
  await expect
    .poll(async () => (link = await mailedLink(colleague, '/invitations/')), { timeout: 10_000 })
    .not.toBe(first);

  const invitee = await browser.newContext({ baseURL });
  const other = await invitee.newPage();
  await other.goto(new URL(link).pathname);
  await expect(other.getByText(`You are invited to join ${team}`)).toBeVisible();
  await other.getByRole('button', { name: 'Sign in or sign up to accept' }).click();
  await createAccount(other, baseURL!, colleague, 'Grace Hopper');
  await signIn(other, colleague);
  await other.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(other.getByLabel('Organization', { exact: true })).toHaveValue(/.+/);
  await expect(other.getByText('Team board')).toBeVisible();
  await invitee.close();

  await page.reload();
  const member = page.getByRole('row', { name: new RegExp(`Grace Hopper.*${colleague}`) });
  await expect(member.getByLabel(`Role of ${colleague}`)).toHaveValue('admin');
  await member.getByLabel(`Role of ${colleague}`).selectOption('viewer');
  await page.reload();
  await expect(member.getByLabel(`Role of ${colleague}`)).toHaveValue('viewer');
  await expect(
    page.getByRole('row', { name: new RegExp(colleague) }).getByText('accepted'),
  ).toBeVisible();

  // Keys: a second key, the old one revoked, then the one-step regenerate and its warning.
  await page.getByRole('link', { name: 'Projects' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: 'Team board' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await page.getByLabel('Key name').fill('ci-2027');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('.key-reveal code')).toContainText(/^mt_/);
  const keys = page.locator('.panel', { has: page.getByRole('heading', { name: 'API keys' }) });
  await expect(keys.getByRole('row', { name: /ci-2027/ })).toBeVisible();
  await keys
    .getByRole('row', { name: /Default/ })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(keys.getByRole('row', { name: /Default/ })).toContainText('revoked');
  await keys.getByRole('button', { name: 'Regenerate key' }).click();
  await keys.getByRole('button', { name: 'Regenerate', exact: true }).click();
  await expect(keys.getByText(/Revoked 1 upload key\(s\) \(ci-2027\)/)).toBeVisible();

  // The audit log: everything above, filtered to key events, and exported as JSON lines.
  await page.goto('/organization');
  const audit = page.locator('.panel', { has: page.getByRole('heading', { name: 'Audit log' }) });
  await audit.getByLabel('Action').fill('api_key.');
  await audit.getByRole('button', { name: 'Show events' }).click();
  await expect(audit.getByRole('cell', { name: 'api_key.regenerated' })).toBeVisible();
  await expect(audit.getByRole('cell', { name: 'api_key.revoked' })).toBeVisible();
  await expect(audit.getByRole('cell', { name: 'member.invited' })).toHaveCount(0);
  const download = page.waitForEvent('download');
  await audit.getByRole('button', { name: 'Export JSON lines' }).click();
  const lines = (await readFile(await (await download).path(), 'utf8')).trim().split('\n');
  const actions = lines.map((line) => (JSON.parse(line) as { action: string }).action);
  expect(actions).toEqual(expect.arrayContaining(['api_key.created', 'api_key.revoked']));
  expect(actions.every((action) => action.startsWith('api_key.'))).toBe(true);
});
