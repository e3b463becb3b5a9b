import { expect, test, type Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

const MSG = {
  email: 'Please enter a valid email address',
  password:
    'Password must be 8-128 characters with at least one lowercase, uppercase, number, and special character',
  passwordRequired: 'Password is required',
  mismatch: 'Passwords do not match',
  fullName: 'Full name is required',
  fullNameLong: 'Full name cannot exceed 100 characters',
};

const submit = (page: Page) => page.locator('form button[type="submit"]');

test.describe('auth screen', () => {
  test('sign in: required fields on submit, live email check, social buttons under "or"', async ({
    page,
  }) => {
    await page.goto('/auth');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await submit(page).click();
    await expect(page.getByText(MSG.email)).toBeVisible();
    await expect(page.getByText(MSG.passwordRequired)).toBeVisible();
    // Blocked while errors exist.
    await expect(submit(page)).toBeDisabled();

    await page.getByLabel('Email').fill('Dev@Example.com');
    await expect(page.getByText(MSG.email)).toBeHidden();
    await page.getByLabel('Email').fill('not-an-email');
    await expect(page.getByText(MSG.email)).toBeVisible();

    await expect(page.locator('.auth__or')).toHaveText('or');
    await expect(page.getByRole('button', { name: 'Continue with GitHub' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Forgot your password?' })).toBeVisible();
    await page.screenshot({ path: join(resultsDir, 'auth-signin.png'), fullPage: true });
  });

  test('sign up: every rule, strength meter and show/hide', async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await submit(page).click();
    await expect(page.getByText(MSG.fullName)).toBeVisible();
    await expect(page.getByText(MSG.email)).toBeVisible();
    await expect(page.locator('#password-error')).toHaveText(MSG.passwordRequired);

    await page.getByLabel('Full name').fill('   ');
    await expect(page.getByText(MSG.fullName)).toBeVisible();
    await page.getByLabel('Full name').fill('x'.repeat(101));
    await expect(page.getByText(MSG.fullNameLong)).toBeVisible();
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await expect(page.locator('#fullName-error')).toBeHidden();

    const password = page.getByLabel('Password', { exact: true });
    await password.fill('abc');
    await expect(page.getByText(MSG.password)).toBeVisible();
    const meter = page.locator('.strength');
    await expect(meter).toHaveAttribute('data-score', '1');
    await expect(meter).toContainText('Weak');
    for (const hint of [
      'Use at least 8 characters',
      'Include uppercase letters',
      'Include numbers',
      'Include special characters (@$!%*?&)',
    ]) {
      await expect(meter.getByText(hint, { exact: true })).toBeVisible();
    }
    await password.fill('Abcdefg1');
    await expect(meter).toHaveAttribute('data-score', '4');
    await expect(meter).toContainText('Medium');
    await password.fill('Abcdefg1!xyz');
    await expect(meter).toHaveAttribute('data-score', '6');
    await expect(meter).toContainText('Strong');
    await expect(page.locator('#password-error')).toBeHidden();

    await page.getByLabel('Confirm password').fill('Abcdefg1!xy');
    await expect(page.getByText(MSG.mismatch)).toBeVisible();
    await page.getByLabel('Confirm password').fill('Abcdefg1!xyz');
    await expect(page.getByText(MSG.mismatch)).toBeHidden();
    // Changing the password re-checks the confirmation.
    await password.fill('Abcdefg1!xyzW');
    await expect(page.getByText(MSG.mismatch)).toBeVisible();

    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).first().click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.screenshot({ path: join(resultsDir, 'auth-signup.png'), fullPage: true });
  });

  test('switching modes clears fields and errors; forgot password flow texts', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Email').fill('bad');
    await expect(page.getByText(MSG.email)).toBeVisible();
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('');
    await expect(page.getByText(MSG.email)).toBeHidden();
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await expect(submit(page)).toHaveText('Send Reset Link');
    await submit(page).click();
    await expect(page.getByText(MSG.email)).toBeVisible();
    await page.getByRole('button', { name: 'Back to Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(page.getByText(MSG.email)).toBeHidden();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByLabel('Full name').fill('Ada');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByLabel('Full name')).toHaveValue('');
  });

  test('GitHub modal: different account opens the logout page, then 3 steps', async ({
    page,
    context,
  }) => {
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    const modal = page.getByRole('dialog', { name: 'Sign in with GitHub' });
    await expect(
      modal.getByRole('button', { name: 'Continue with current GitHub account' }),
    ).toBeVisible();
    // The provider's logout page must open in a new tab; it is not loaded here (no network).
    await context.route('https://github.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>GitHub</title>' }),
    );
    const popup = context.waitForEvent('page');
    await modal.getByRole('button', { name: 'Sign in with a different GitHub account' }).click();
    const opened = await popup;
    expect(opened.url()).toBe('https://github.com/logout');
    await opened.close();
    await expect(modal.locator('.modal__steps li')).toHaveCount(3);
    await expect(modal.getByRole('button', { name: 'Continue to GitHub Sign In' })).toBeVisible();
    await page.screenshot({ path: join(resultsDir, 'auth-github-modal.png') });
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
  });

  test('a rejected sign-in shows the server message in the error box', async ({ page }) => {
    await page.route('**/auth/login', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, data: null, error: 'Invalid email or password' }),
      }),
    );
    await page.goto('/auth');
    await page.getByLabel('Email').fill('dev@example.com');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await submit(page).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(submit(page)).toHaveText('Sign In');
  });
});
