import { expect, test } from '@playwright/test';
import { PASSWORD, signIn } from './support/account.ts';
import { mailboxUrl, newestLink } from './support/mailbox.ts';

// The cloud mode's mail flows on the local stack, whose gateway sends through the local mail
// catcher: a newcomer signs up and confirms from the mailed link, then forgets the password
// and sets a new one from the mailed reset link — every link read from the inbox, none from a
// log.

const NEW_PASSWORD = 'Firmware!2027y';
const uniqueEmail = () => `mail-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

test('sign-up confirmation and password reset arrive in the local inbox', async ({ page }) => {
  // The inbox the stack prints is a web page for browsers (and the API read below).
  const inbox = mailboxUrl();
  expect(inbox, 'the local stack runs a mail catcher').toBeTruthy();
  const inboxPage = await page.request.get(inbox!, { headers: { accept: 'text/html' } });
  expect(inboxPage.ok()).toBe(true);
  expect(await inboxPage.text()).toContain('MailDev');

  const email = uniqueEmail();
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByLabel('Full name').fill('Katherine Johnson');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByText('Check your email for the confirmation link!')).toBeVisible();

  // The mailed link, followed on the stack under test whatever public URL the gateway wrote.
  const confirm = new URL(await newestLink(email, '/auth/confirm?token='));
  await page.goto(`${confirm.pathname}${confirm.search}`);
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();

  await page.goto('/auth');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill(email);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByText('Password reset email sent! Check your inbox.')).toBeVisible();

  const reset = new URL(await newestLink(email, '/reset-password'));
  await page.goto(`${reset.pathname}${reset.search}${reset.hash}`);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sign Out' }).click();

  // The old password no longer opens the account; the new one does.
  await signIn(page, email);
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
});
