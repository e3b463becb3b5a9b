import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import type { WebRuntimeConfig } from '@memtrail/contracts';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { injectRuntimeConfig, scriptSafeJson } from '../src/web/runtime-config.js';
import { startGateway, type Gateway } from './support/gateway-harness.js';

// A built app in miniature: Vite's index.html shape (module script and stylesheet in <head>).
const indexHtml = (asset: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Memtrail</title>
    <script type="module" crossorigin src="/static/js/${asset}"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

// A key that tries every way out of a script element and a JavaScript string.
const HOSTILE_KEY = 'phc_</script><script>window.pwned=1</script><!--\u2028"\\&';

/** Every script element as the HTML tokenizer sees it: the body ends at the first `</script`. */
function scripts(html: string): Array<{ attributes: string; body: string }> {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script/gi)].map((match) => ({
    attributes: match[1] ?? '',
    body: match[2] ?? '',
  }));
}

/** Runs the page's inline scripts as a browser would and returns what they set on `window`. */
function injectedConfig(html: string): { config: WebRuntimeConfig | undefined; window: object } {
  const window: { __MEMTRAIL_CONFIG__?: WebRuntimeConfig } = {};
  for (const script of scripts(html).filter((s) => !s.attributes.includes('src='))) {
    runInNewContext(script.body, { window });
  }
  return { config: window.__MEMTRAIL_CONFIG__, window };
}

describe('runtime config script', () => {
  it('escapes everything that could end the script element or the string', () => {
    const json = scriptSafeJson({ key: HOSTILE_KEY });
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual({ key: HOSTILE_KEY });
  });

  it('goes before the first script, else before </head>, and needs one of them', () => {
    const config = { DEPLOYMENT_MODE: 'onprem' };
    const withScript = injectRuntimeConfig(indexHtml('app.js'), config);
    expect(scripts(withScript).map((s) => s.attributes)).toEqual([
      '',
      ' type="module" crossorigin src="/static/js/app.js"',
    ]);
    const noScript = injectRuntimeConfig('<html><head><title>x</title></head></html>', config);
    expect(noScript).toMatch(/<title>x<\/title><script>window.__MEMTRAIL_CONFIG__=.*<\/head>/s);
    expect(() => injectRuntimeConfig('<p>no head</p>', config)).toThrow(/index.html has neither/);
  });
});

describe('gateway serving index.html with the runtime config', () => {
  let stores: IsolatedStores;
  let distDir: string;
  let cloud: Gateway;
  let onprem: Gateway;

  beforeAll(async () => {
    stores = await createIsolatedStores();
    distDir = await mkdtemp(join(tmpdir(), 'memtrail-web-'));
    await mkdir(join(distDir, 'static', 'js'), { recursive: true });
    await writeFile(join(distDir, 'static', 'js', 'app-1.js'), 'console.log(1);');
    await writeFile(join(distDir, 'index.html'), indexHtml('app-1.js'));
    // A file of public/ at the build's root, and one where an API path would find it.
    await mkdir(join(distDir, 'screenshots'));
    await writeFile(join(distDir, 'screenshots', 'shot.webp'), 'RIFF');
    await mkdir(join(distDir, 'api'));
    await writeFile(join(distDir, 'api', 'no-such-route'), 'not the API');
    cloud = await startGateway(stores, { WEB_DIST_DIR: distDir });
    onprem = await startGateway(stores, {
      WEB_DIST_DIR: distDir,
      DEPLOYMENT_MODE: 'onprem',
      WEB_POSTHOG_KEY: HOSTILE_KEY,
      // One configured provider: the on-premises sign-in screen offers it alone.
      OAUTH_GITHUB_CLIENT_ID: 'memtrail-test',
      OAUTH_GITHUB_CLIENT_SECRET: 'not-a-real-secret',
    });
  });

  afterAll(async () => {
    await cloud?.close();
    await onprem?.close();
    await stores?.cleanup();
    if (distDir) await rm(distDir, { recursive: true, force: true });
  });

  const page = async (base: string, path: string) => {
    const response = await fetch(`${base}${path}`);
    return {
      status: response.status,
      cacheControl: response.headers.get('cache-control'),
      type: response.headers.get('content-type'),
      html: await response.text(),
    };
  };

  it('cloud mode without a key or providers: the mode only, on every page path, never cached', async () => {
    for (const path of ['/', '/auth', '/project/p1/target/t%201/symbols', '/index.html']) {
      const served = await page(cloud.url, path);
      expect({ path, status: served.status, cacheControl: served.cacheControl }).toEqual({
        path,
        status: 200,
        cacheControl: 'no-cache',
      });
      expect(served.type).toMatch(/^text\/html/);
      expect(injectedConfig(served.html).config).toEqual({
        DEPLOYMENT_MODE: 'cloud',
        OAUTH_PROVIDERS: [],
      });
    }
  });

  it('on-premises mode with a key and a provider: all three, the key unable to break out', async () => {
    const served = await page(onprem.url, '/');
    const { config, window } = injectedConfig(served.html);
    expect(config).toEqual({
      DEPLOYMENT_MODE: 'onprem',
      OAUTH_PROVIDERS: ['github'],
      POSTHOG_KEY: HOSTILE_KEY,
    });
    expect(window).not.toHaveProperty('pwned');
    // The page keeps exactly its own two scripts: the config and the app.
    expect(scripts(served.html)).toHaveLength(2);
    expect(served.html.match(/<\/script>/g)).toHaveLength(2);
    expect(served.html).not.toContain('<!--');
  });

  it('keeps assets and API paths apart from the page', async () => {
    const asset = await fetch(`${onprem.url}/static/js/app-1.js`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log(1);');
    const api = await fetch(`${onprem.url}/api/no-such-route`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    const shot = await fetch(`${onprem.url}/screenshots/shot.webp`);
    expect(shot.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await shot.text()).toBe('RIFF');
  });

  it('serves a rebuilt index.html without a restart', async () => {
    expect((await page(cloud.url, '/')).html).toContain('/static/js/app-1.js');
    const file = join(distDir, 'index.html');
    await writeFile(file, indexHtml('app-2.js'));
    // A distinct modification time whatever the file system's timestamp resolution.
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    const served = await page(cloud.url, '/tutorial');
    expect(served.html).toContain('/static/js/app-2.js');
    expect(served.html).not.toContain('app-1.js');
    expect(injectedConfig(served.html).config).toEqual({
      DEPLOYMENT_MODE: 'cloud',
      OAUTH_PROVIDERS: [],
    });
  });
});
