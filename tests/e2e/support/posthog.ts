import type { Page, Request, Route } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

// A stand-in for PostHog's US cloud (the hosts web/src/lib/analytics.ts talks to): it answers the
// SDK's configuration and flag calls, serves the SDK's own extension scripts from node_modules,
// records every event the SDK sends, and lets nothing reach the internet.

const API_HOST = 'us.i.posthog.com';
const ASSETS_HOST = 'us-assets.i.posthog.com';

/** The installed SDK's bundles: the same version the web app was built with. */
const sdkDist = dirname(
  createRequire(
    join(fileURLToPath(import.meta.url), '..', '..', '..', '..', 'web', 'package.json'),
  ).resolve('posthog-js'),
);

/** Marks the SDK's own bundle: the app's code names the host but never the package. */
export const SDK_MARKER = 'posthog-js';

export interface CapturedEvent {
  event: string;
  distinct_id?: string;
  properties: Record<string, unknown>;
  /** Person properties set by the event (identify), beside its properties in the payload. */
  $set?: Record<string, unknown>;
  /** Where it was sent, e.g. /e/. */
  path: string;
}

export interface PostHogStub {
  events: CapturedEvent[];
  /** Every request to a PostHog host, as "METHOD url". */
  requests: string[];
  /** Requests to any other host than the app's and PostHog's; they are aborted. */
  unexpected: string[];
}

interface RawEvent {
  event?: string;
  distinct_id?: string;
  properties?: Record<string, unknown>;
  $set?: Record<string, unknown>;
}

/** The events in one ingestion request: gzip or plain JSON; a batch, an array or one event. */
export function decodeEvents(request: Request): RawEvent[] {
  const raw = request.postDataBuffer();
  if (!raw || raw.length === 0) return [];
  const isGzip = raw[0] === 0x1f && raw[1] === 0x8b;
  const text = (isGzip ? gunzipSync(raw) : raw).toString('utf8');
  const body = JSON.parse(text) as RawEvent | RawEvent[] | { batch: RawEvent[] };
  if (Array.isArray(body)) return body;
  return 'batch' in body ? body.batch : [body];
}

const INGESTION = /^\/(e|i\/v0\/e|batch|capture|engage|s|track)\/?$/;

async function answer(route: Route, stub: PostHogStub): Promise<void> {
  const request = route.request();
  const url = new URL(request.url());
  stub.requests.push(`${request.method()} ${url.href}`);
  if (url.hostname === API_HOST) {
    if (INGESTION.test(url.pathname)) {
      for (const event of decodeEvents(request)) {
        stub.events.push({
          event: event.event ?? '',
          distinct_id: event.distinct_id ?? (event.properties?.distinct_id as string | undefined),
          properties: event.properties ?? {},
          $set: event.$set,
          path: url.pathname,
        });
      }
      return route.fulfill({ json: { status: 1 } });
    }
    if (url.pathname.startsWith('/flags') || url.pathname.startsWith('/decide')) {
      return route.fulfill({
        json: { featureFlags: {}, featureFlagPayloads: {}, errorsWhileComputingFlags: false },
      });
    }
    if (url.pathname.startsWith('/api/surveys')) return route.fulfill({ json: { surveys: [] } });
    if (url.pathname.startsWith('/api/web_experiments')) {
      return route.fulfill({ json: { experiments: [] } });
    }
    return route.fulfill({ json: {} });
  }
  // Assets: the project's remote config and the SDK's lazy extensions. Like PostHog's, the
  // config offers gzip, so events arrive compressed as they do in production.
  if (url.pathname.endsWith('/config')) {
    return route.fulfill({ json: { supportedCompression: ['gzip', 'gzip-js'] } });
  }
  if (url.pathname.endsWith('/config.js')) {
    return route.fulfill({ contentType: 'text/javascript', body: '' });
  }
  const script = await readFile(join(sdkDist, basename(url.pathname))).catch(() => null);
  return script
    ? route.fulfill({ contentType: 'text/javascript', body: script })
    : route.fulfill({ status: 404, body: '' });
}

/** Routes every request of `page` that leaves `appOrigin` through the stand-in. */
export async function stubPostHog(page: Page, appOrigin: string): Promise<PostHogStub> {
  const stub: PostHogStub = { events: [], requests: [], unexpected: [] };
  await page.route(
    (url) => url.origin !== appOrigin,
    async (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === API_HOST || hostname === ASSETS_HOST) return answer(route, stub);
      stub.unexpected.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  return stub;
}

/**
 * Makes the browser look like a person's: the SDK drops events from automated browsers
 * (`navigator.webdriver`), which Playwright's Chromium is.
 */
export async function asRegularBrowser(page: Page): Promise<void> {
  await page.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }),
  );
}
