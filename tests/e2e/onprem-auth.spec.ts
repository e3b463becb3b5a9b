import { expect, test, type Page } from '@playwright/test';
import { PASSWORD } from './support/account.ts';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.ts';

// Sign-up, sign-in and sign-out in on-premises mode (spec §1, §3, §4, §7, §8), against a second
// gateway started with DEPLOYMENT_MODE=onprem beside the running (cloud-mode) stack.

const MSG = {
  // The gateway's answer to a wrong password; the on-premises client shows the server's error.
  invalidCredentials: 'Invalid email or password',
  reset: 'Password reset not yet implemented for on-premises deployment',
};

/** Spec §3: on-premises sessions live under three product-prefixed keys. */
const KEYS = {
  access: 'memtrail_access_token',
  refresh: 'memtrail_refresh_token',
  user: 'memtrail_user',
  hosted: 'memtrail_auth_session',
};

let gateway: GatewayProcess;

test.beforeAll(async () => {
  gateway = await startGatewayProcess('gateway-onprem', { DEPLOYMENT_MODE: 'onprem' });
});

test.afterAll(async () => {
  await gateway?.stop();
});

const uniqueEmail = () => `onprem-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
const submit = (page: Page) => page.locator('form button[type="submit"]');

async function stored(page: Page) {
  return page.evaluate((keys) => {
    const read = (key: string) => window.localStorage.getItem(key);
    return {
      access: read(keys.access),
      refresh: read(keys.refresh),
      user: read(keys.user),
      hosted: read(keys.hosted),
    };
  }, KEYS);
}

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await submit(page).click();
}

test('sign up, land signed in with stored tokens, sign out clears them, sign in again', async ({
  page,
}) => {
  const email = uniqueEmail();
  await page.goto(`${gateway.url}/auth`);
  // The mode reaches the page through the gateway's injected runtime config.
  const runtimeConfig = await page.evaluate(
    () => (window as { __MEMTRAIL_CONFIG__?: { DEPLOYMENT_MODE?: string } }).__MEMTRAIL_CONFIG__,
  );
  expect(runtimeConfig).toEqual({ DEPLOYMENT_MODE: 'onprem', OAUTH_PROVIDERS: [] });

  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(email);
  const password = page.getByLabel('Password', { exact: true });
  const meter = page.locator('.strength');
  await password.fill('firmware');
  await expect(meter).toHaveAttribute('data-score', '2');
  await expect(meter).toContainText('Weak');
  await password.fill(PASSWORD);
  await expect(meter).toHaveAttribute('data-score', '6');
  await expect(meter).toContainText('Strong');
  await expect(meter.locator('li')).toHaveCount(0);

  await page.getByRole('button', { name: 'Show password' }).first().click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await expect(submit(page)).toHaveText('Create Account');
  await submit(page).click();

  // No confirmation mail on-premises: the sign-up answer is a session.
  await expect(page).toHaveURL(`${gateway.url}/`);
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(page.locator('.header__email')).toHaveText(email);
  const first = await stored(page);
  expect(first.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(first.refresh).toBeTruthy();
  expect(JSON.parse(first.user ?? '{}')).toMatchObject({ email });
  expect(first.hosted).toBeNull();
  // The stored token is the API's bearer token.
  const projects = await page.request.get(`${gateway.url}/api/projects`, {
    headers: { authorization: `Bearer ${first.access}` },
  });
  expect(projects.status()).toBe(200);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  expect(await stored(page)).toEqual({ access: null, refresh: null, user: null, hosted: null });
  // Sign-out also revoked the refresh token on the server (POST /auth/logout).
  const refresh = await page.request.post(`${gateway.url}/auth/refresh`, {
    data: { refresh_token: first.refresh },
  });
  expect(refresh.status()).toBe(401);

  await page.getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(page.locator('.header__email')).toHaveText(email);
  const second = await stored(page);
  expect(second.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(second.refresh).toBeTruthy();
  expect(second.refresh).not.toBe(first.refresh);
  expect(JSON.parse(second.user ?? '{}')).toMatchObject({ email });

  // The session survives a reload: it is read back from storage.
  await page.reload();
  await expect(page.locator('.header__email')).toHaveText(email);
});

test('wrong password and forgot password show the on-premises messages; no OAuth buttons without providers', async ({
  page,
}) => {
  const email = uniqueEmail();
  const signup = await page.request.post(`${gateway.url}/auth/signup`, {
    data: { email, password: PASSWORD },
  });
  expect(signup.status()).toBe(200);

  await page.goto(`${gateway.url}/auth`);
  await signIn(page, email, `${PASSWORD}-wrong`);
  await expect(page.getByRole('alert')).toHaveText(MSG.invalidCredentials);
  await expect(submit(page)).toHaveText('Sign In');
  expect(await stored(page)).toEqual({ access: null, refresh: null, user: null, hosted: null });

  // No OAuth provider is configured, so no button offers what could only fail.
  await expect(page.getByRole('button', { name: /Continue with (Google|GitHub)/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText(MSG.reset);
  await expect(submit(page)).toHaveText('Send Reset Link');
});
