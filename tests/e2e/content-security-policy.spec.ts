import { expect, test, type Page } from '@playwright/test';
import { stackPorts } from '@memtrail/local-stack';
import { createAccount, PASSWORD } from './support/account.ts';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.ts';
import { buildHistory, uploadHistory } from './support/reports.ts';

// The web app under the gateway's Content-Security-Policy: every main page renders without a
// single violation, signed out and signed in, with charts drawn from real uploads. A gateway
// on-premises (sign-up signs in at once) beside the running stack.

const TARGET = 'csp-board';

let gateway: GatewayProcess;

test.beforeAll(async () => {
  gateway = await startGatewayProcess('gateway-csp', { DEPLOYMENT_MODE: 'onprem' });
});

test.afterAll(async () => {
  await gateway?.stop();
});

/** Collects every CSP violation the page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(
        `${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      ),
    );
  });
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  return async () => [
    ...(await page.evaluate(
      () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [],
    )),
    ...console,
  ];
}

test('every main page renders without a Content-Security-Policy violation', async ({ page }) => {
  test.setTimeout(180_000);
  const violations = await watchViolations(page);
  const visited: Record<string, string[]> = {};
  const visit = async (path: string, ready: () => Promise<void>) => {
    await page.goto(`${gateway.url}${path}`);
    await ready();
    visited[path] = await violations();
  };
  const heading = (name: string) => () =>
    expect(page.getByRole('heading', { name }).first()).toBeVisible();

  await visit('/', heading('Ready to Get Started?'));
  await visit('/tutorial', () => expect(page.locator('main')).toBeVisible());
  await visit('/pricing', () => expect(page.locator('main')).toBeVisible());
  await visit('/auth', () => expect(page.getByLabel('Email')).toBeVisible());

  // An account with a project and a short history, as CI would upload it.
  const email = `csp-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await page
    .getByRole('button', { name: /sign up/i })
    .first()
    .click();
  const signup = await page.request.post(`${gateway.url}/auth/signup`, {
    data: { email, password: PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  const session = ((await signup.json()) as { data: { access_token: string } }).data;
  const created = await page.request.post(`${gateway.url}/api/projects`, {
    headers: { authorization: `Bearer ${session.access_token}` },
    data: { name: 'CSP probe', description: '' },
  });
  const project = ((await created.json()) as { data: { project: { id: string; api_key: string } } })
    .data.project;
  await uploadHistory(
    gateway.url,
    project.api_key,
    TARGET,
    buildHistory(6, Date.now().toString(16)),
  );

  await page.goto(`${gateway.url}/auth`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  visited['/ (projects)'] = await violations();

  const base = `/project/${project.id}/target/${TARGET}`;
  // The charts need the history ingested; the dashboard shows it once the worker is done.
  await expect(async () => {
    await page.goto(`${gateway.url}${base}`);
    await expect(page.locator('svg').first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
  visited[base] = await violations();
  for (const page_ of ['symbols', 'compare', 'region-config']) {
    await visit(`${base}/${page_}`, () => expect(page.locator('main')).toBeVisible());
  }
  await visit(`/project/${project.id}/settings`, () => expect(page.locator('main')).toBeVisible());

  for (const [path, found] of Object.entries(visited)) {
    expect({ path, violations: found }).toEqual({ path, violations: [] });
  }
  // The watch does see a violation: an inline script the policy does not admit.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
  });
  await expect.poll(async () => (await violations()).join('\n')).toContain('script-src');
});

test.describe('cloud mode', () => {
  // Password updates are a hosted-mode flow (on-premises the spec answers "not yet
  // implemented"); the stack's mail catcher receives the confirmation mail.
  let cloud: GatewayProcess;

  test.beforeAll(async () => {
    cloud = await startGatewayProcess('gateway-csp-cloud', {
      DEPLOYMENT_MODE: 'cloud',
      SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${stackPorts.mailSmtp}`,
    });
  });

  test.afterAll(async () => {
    await cloud?.stop();
  });

  test('a signed-in user changes the password, giving the current one', async ({ page }) => {
    const violations = await watchViolations(page);
    const email = `csp-pw-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    await createAccount(page, cloud.url, email, 'Grace Hopper');
    await page.goto(`${cloud.url}/auth`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('form button[type="submit"]').click();
    await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();

    const next = 'Changed!Pass2026';
    await page.goto(`${cloud.url}/reset-password`);
    await page.getByLabel('Current password').fill('Wrong!Pass2026');
    await page.getByLabel('New password').fill(next);
    await page.getByLabel('Confirm password').fill(next);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('The current password is incorrect');

    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
    const login = await page.request.post(`${cloud.url}/auth/login`, {
      data: { email, password: next },
    });
    expect(login.ok()).toBe(true);
    expect(await violations()).toEqual([]);
  });
});
