import { expect, type Page } from '@playwright/test';
import { newestLink } from './mailbox.ts';

// A fresh confirmed account on the running stack. In cloud mode the gateway mails a
// confirmation link; the local stack's mail catcher receives it and the helper follows it as
// the user would.

export const PASSWORD = 'Firmware!2026x';

export async function confirmationLink(email: string, timeoutMs = 15_000): Promise<string> {
  return mailedLink(email, '/auth/confirm?token=', timeoutMs);
}

/** The newest link to `path` mailed to `email` (from the local stack's mail catcher). */
export function mailedLink(email: string, path: string, timeoutMs = 15_000): Promise<string> {
  return newestLink(email, path, timeoutMs);
}

/** Signs up through the API, confirms (cloud) and signs in through the UI. */
export async function signUpAndSignIn(page: Page, baseURL: string): Promise<string> {
  const email = `fw-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await createAccount(page, baseURL, email, 'Ada Lovelace');
  await signIn(page, email);
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  return email;
}

/** A confirmed account: signed up through the API, its confirmation link followed (cloud). */
export async function createAccount(
  page: Page,
  baseURL: string,
  email: string,
  fullName: string,
): Promise<void> {
  const response = await page.request.post(`${baseURL}/auth/signup`, {
    data: { email, password: PASSWORD, full_name: fullName },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { data?: { access_token?: string | null } };
  if (!body.data?.access_token) {
    // Follow the link on the stack under test whatever public URL the gateway put in it.
    const link = new URL(await confirmationLink(email));
    const confirmed = await page.request.get(`${baseURL}${link.pathname}${link.search}`, {
      maxRedirects: 0,
    });
    expect(confirmed.status()).toBeLessThan(400);
  }
}

/** Signs in through the sign-in form. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
}
