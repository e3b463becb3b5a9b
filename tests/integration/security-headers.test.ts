import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { startGateway, type Gateway } from '../../services/gateway/test/support/gateway-harness.js';

// The built web app (npm run build), served as in production.
const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Record<string, string[]> {
  return Object.fromEntries(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('security headers', () => {
  let stores: IsolatedStores;
  let direct: Gateway;
  let proxied: Gateway;

  beforeAll(async () => {
    if (!existsSync(`${webDist}/index.html`))
      throw new Error(`${webDist} is missing: npm run build`);
    stores = await createIsolatedStores();
    direct = await startGateway(stores, { WEB_DIST_DIR: webDist });
    proxied = await startGateway(stores, {
      WEB_DIST_DIR: webDist,
      TRUST_PROXY_HOPS: '1',
      WEB_POSTHOG_KEY: 'phc_headers_test',
    });
  });

  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
    await stores?.cleanup();
  });

  it('sends a strict policy and the hardening headers on API answers and pages alike', async () => {
    for (const path of ['/healthz', '/api/projects', '/auth', '/docs']) {
      const response = await fetch(`${direct.url}${path}`);
      const csp = directives(response.headers.get('content-security-policy'));
      expect({ path, frame: csp['frame-ancestors'] }).toEqual({ path, frame: ["'none'"] });
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(csp['script-src']).not.toContain("'unsafe-eval'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('x-powered-by')).toBeNull();
      // Plain HTTP: no HSTS, which would pin browsers to a TLS this server does not offer.
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it("admits exactly the page's inline config script, by its hash", async () => {
    const html = await (await fetch(`${direct.url}/auth`)).text();
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]!).digest('base64');
    const csp = directives((await fetch(`${direct.url}/`)).headers.get('content-security-policy'));
    expect(csp['script-src']).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(csp['connect-src']).toEqual(["'self'"]);
  });

  it("allows PostHog's hosts only when analytics is configured", async () => {
    const csp = directives((await fetch(`${proxied.url}/`)).headers.get('content-security-policy'));
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://us.i.posthog.com',
      'https://us-assets.i.posthog.com',
    ]);
    expect(csp['script-src']).toContain('https://us-assets.i.posthog.com');
  });

  it('sends HSTS over TLS, as a trusted proxy reports it, and believes no one else', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const viaProxy = await fetch(`${proxied.url}/healthz`, { headers: https });
    expect(viaProxy.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
    const untrusted = await fetch(`${direct.url}/healthz`, { headers: https });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });

  it('lets other sites embed badges, and nothing else', async () => {
    const badge = await fetch(`${direct.url}/badge/none/none.svg`);
    expect(badge.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const api = await fetch(`${direct.url}/healthz`);
    expect(api.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});
