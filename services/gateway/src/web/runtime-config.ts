import type { WebRuntimeConfig } from '@memtrail/contracts';
import type { GatewayConfig } from '../config.js';
import { configuredProviders } from '../oauth/oauth-providers.js';

/**
 * The web app's runtime configuration from the gateway's own. CORE_URL is left out on purpose:
 * the gateway serves the app, so the page's own origin is the core service, whatever host name
 * the browser used; injecting the configured address would send a browser that reached the
 * gateway under another name (127.0.0.1, a second ingress) to a different origin.
 */
export function webRuntimeConfig(config: GatewayConfig): WebRuntimeConfig {
  return {
    DEPLOYMENT_MODE: config.DEPLOYMENT_MODE,
    OAUTH_PROVIDERS: configuredProviders(config).map((provider) => provider.id),
    ...(config.WEB_POSTHOG_KEY && { POSTHOG_KEY: config.WEB_POSTHOG_KEY }),
  };
}

/**
 * JSON that is safe inside an HTML <script> element: `<`, `>` and `&` are escaped so no value
 * can close the element or open a comment, and U+2028/U+2029 so older parsers read one line.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The inline script's text; the Content-Security-Policy admits exactly it, by its hash. */
export function runtimeConfigScript(config: WebRuntimeConfig): string {
  return `window.__MEMTRAIL_CONFIG__=${scriptSafeJson(config)};`;
}

/**
 * index.html with a classic script setting `window.__MEMTRAIL_CONFIG__` (read by
 * web/src/lib/config.ts), placed before the first script of the page so it runs before the app.
 */
export function injectRuntimeConfig(html: string, config: WebRuntimeConfig): string {
  const tag = `<script>${runtimeConfigScript(config)}</script>`;
  const at = html.search(/<script|<\/head>/i);
  if (at < 0)
    throw new Error('index.html has neither a <script> nor </head> to put the config before');
  return `${html.slice(0, at)}${tag}\n    ${html.slice(at)}`;
}
