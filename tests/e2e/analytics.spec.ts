import { expect, test, type Page, type Response } from '@playwright/test';
import { PASSWORD } from './support/account.ts';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.ts';
import {
  asRegularBrowser,
  stubPostHog,
  SDK_MARKER,
  type CapturedEvent,
  type PostHogStub,
} from './support/posthog.ts';

// Usage analytics in the browser (spec §3, §4, §9): what posthog-js sends with a project key,
// nothing with Do Not Track, and no SDK at all without a key. PostHog's hosts are answered by a
// local stand-in. The keyed gateway runs on-premises, where sign-up needs no confirmation mail.

const KEY = 'phc_e2e_analytics';
// The SDK's batches leave at most every 3 s; a wait longer than that has seen them all.
const FLUSH_MS = 3_500;

let gateway: GatewayProcess;

test.beforeAll(async () => {
  gateway = await startGatewayProcess('gateway-analytics', {
    DEPLOYMENT_MODE: 'onprem',
    WEB_POSTHOG_KEY: KEY,
  });
});

test.afterAll(async () => {
  await gateway?.stop();
});

/** A fresh account with one project, made through the API. */
async function accountWithProject(page: Page) {
  const email = `analytics-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post(`${gateway.url}/auth/signup`, {
    data: { email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(200);
  const session = (
    (await signup.json()) as { data: { access_token: string; user: { id: string } } }
  ).data;
  const created = await page.request.post(`${gateway.url}/api/projects`, {
    headers: { authorization: `Bearer ${session.access_token}` },
    data: { name: 'Analytics probe', description: '' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const project = ((await created.json()) as { data: { project: { id: string } } }).data.project;
  return { email, userId: session.user.id, projectId: project.id };
}

const pageviews = (stub: PostHogStub) => stub.events.filter((e) => e.event === '$pageview');
const pageviewAt = (stub: PostHogStub, path: string) =>
  pageviews(stub).find((e) => e.properties.$pathname === path);

/** A link of the header's main navigation (pages may link to the same places). */
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

async function eventually(
  stub: PostHogStub,
  find: (stub: PostHogStub) => CapturedEvent | undefined,
) {
  await expect.poll(() => find(stub), { timeout: 8_000 }).toBeTruthy();
  return find(stub) as CapturedEvent;
}

test('page views, sign-in identification, project properties and sign-out reset', async ({
  page,
}) => {
  const { email, userId, projectId } = await accountWithProject(page);
  await asRegularBrowser(page);
  const stub = await stubPostHog(page, gateway.url);
  const sdkLoaded = page.waitForResponse(
    async (response) => isScript(response) && (await response.text()).includes(SDK_MARKER),
  );

  await page.goto(`${gateway.url}/auth`);
  await sdkLoaded;
  const title = await page.title();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  // Into the project's dashboard in-app, as a link to it would go (the project has no target
  // yet, so the app shows no such link), keeping the SDK's queue in one page's lifetime.
  const dashboardPath = `/project/${projectId}/target/board-a`;
  await page.evaluate((path) => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, dashboardPath);
  // The side menu names the target only on the project's pages.
  await expect(page.getByText('board-a').first()).toBeVisible();
  // Leaving the project's pages must drop its id and target from later events.
  await nav(page, 'Tutorial').click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  await nav(page, 'Pricing').click();

  const authView = await eventually(stub, (s) => pageviewAt(s, '/auth'));
  expect(authView.properties).toMatchObject({
    page_name: title,
    $current_url: `${gateway.url}/auth`,
    page_type: 'auth',
  });
  const signedIn = await eventually(stub, (s) =>
    s.events.find((e) => e.event === 'user_signed_in'),
  );
  expect(signedIn.properties).toMatchObject({ email, user_id: userId });
  expect(signedIn.distinct_id).toBe(userId);
  // identify() links the anonymous visitor to the user and sets the person's email.
  const identify = stub.events.find((e) => e.event === '$identify');
  expect(identify?.distinct_id).toBe(userId);
  const anonymousId = identify?.properties.$anon_distinct_id;
  expect(anonymousId).toBeTruthy();
  expect(anonymousId).not.toBe(userId);
  expect(identify?.$set).toMatchObject({ email });
  const home = await eventually(stub, (s) => pageviewAt(s, '/'));
  expect(home.distinct_id).toBe(userId);
  expect(home.properties).toMatchObject({
    $current_url: `${gateway.url}/`,
    page_type: 'projects_list',
  });

  const dashboard = await eventually(stub, (s) => pageviewAt(s, dashboardPath));
  expect(dashboard.properties).toMatchObject({
    project_id: projectId,
    target_name: 'board-a',
    page_type: 'dashboard',
    $current_url: `${gateway.url}${dashboardPath}`,
  });
  const tutorial = await eventually(stub, (s) => pageviewAt(s, '/tutorial'));
  expect(tutorial.properties).toMatchObject({ page_type: 'tutorial', page_name: title });
  expect(tutorial.properties).not.toHaveProperty('project_id');
  expect(tutorial.properties).not.toHaveProperty('target_name');
  expect(tutorial.distinct_id).toBe(userId);

  // Signed out, the identity is reset: a new anonymous id, neither the user's nor the old one.
  const pricing = await eventually(stub, (s) => pageviewAt(s, '/pricing'));
  expect(pricing.distinct_id).toBeTruthy();
  expect([userId, anonymousId]).not.toContain(pricing.distinct_id);
  expect(pricing.properties).toMatchObject({ page_type: 'pricing' });

  expect(stub.unexpected).toEqual([]);
});

test('with Do Not Track on, nothing is captured', async ({ page }) => {
  await asRegularBrowser(page);
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' }),
  );
  const stub = await stubPostHog(page, gateway.url);
  const sdkLoaded = page.waitForResponse(
    async (response) => isScript(response) && (await response.text()).includes(SDK_MARKER),
  );
  await page.goto(`${gateway.url}/auth`);
  await sdkLoaded;
  await nav(page, 'Tutorial').click();
  await nav(page, 'Pricing').click();
  await expect(nav(page, 'Pricing')).toHaveClass(/active/);
  await page.waitForTimeout(FLUSH_MS);
  // The SDK started (it fetched its remote config) but sent no event.
  expect(stub.requests.some((request) => request.includes(`/array/${KEY}/config`))).toBe(true);
  expect(stub.events).toEqual([]);
  expect(stub.unexpected).toEqual([]);
});

test('without a key, posthog-js is never requested', async ({ page, baseURL }) => {
  // The stack's own gateway runs without WEB_POSTHOG_KEY.
  const external: string[] = [];
  await page.route(
    (url) => url.origin !== new URL(baseURL ?? '').origin,
    (route) => {
      external.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  // URL of every script loaded, and whether it is the SDK.
  const scripts: Array<Promise<[string, boolean]>> = [];
  page.on('response', (response) => {
    if (!isScript(response)) return;
    scripts.push(response.text().then((body) => [response.url(), body.includes(SDK_MARKER)]));
  });
  await page.goto('/auth');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  await nav(page, 'Tutorial').click();
  await nav(page, 'Pricing').click();
  await expect(nav(page, 'Pricing')).toHaveClass(/active/);
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  expect(loaded.length).toBeGreaterThan(0);
  expect(loaded.filter(([, isSdk]) => isSdk).map(([url]) => url)).toEqual([]);
  expect(external).toEqual([]);
});

function isScript(response: Response): boolean {
  return response.request().resourceType() === 'script' && response.ok();
}
