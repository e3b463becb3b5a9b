// Where the app learns its deployment mode and the core service address. The gateway may inject
// `window.__MEMTRAIL_CONFIG__` (a script in index.html) so one build serves both modes; without
// it the build-time VITE_* variables apply, then the defaults of spec §9.

import type { WebRuntimeConfig } from '@memtrail/contracts';

export type DeploymentMode = 'cloud' | 'onprem';

declare global {
  interface Window {
    __MEMTRAIL_CONFIG__?: WebRuntimeConfig;
  }
}

const runtime: WebRuntimeConfig =
  typeof window === 'undefined' ? {} : (window.__MEMTRAIL_CONFIG__ ?? {});

const pick = (...values: Array<string | undefined>) => values.find((value) => value) ?? undefined;

export const DEFAULT_DEPLOYMENT_MODE: DeploymentMode = 'cloud';
export const DEFAULT_CORE_URL = 'http://localhost:5000';

const mode = pick(runtime.DEPLOYMENT_MODE, import.meta.env.VITE_DEPLOYMENT_MODE);

export const deploymentMode: DeploymentMode =
  mode === 'onprem' ? 'onprem' : DEFAULT_DEPLOYMENT_MODE;

/**
 * The gateway serves this app, so with no explicit address the page's own origin is the core
 * service (in the default local stack that origin is the default address, port 5000). An explicit
 * CORE_URL points the browser at a gateway on another origin.
 */
export const coreUrl: string = (
  pick(runtime.CORE_URL, import.meta.env.VITE_CORE_URL) ??
  (typeof window === 'undefined' ? DEFAULT_CORE_URL : window.location.origin)
).replace(/\/+$/, '');

/** Analytics stays off unless a project key is configured. */
export const posthogKey: string | undefined = pick(
  runtime.POSTHOG_KEY,
  import.meta.env.VITE_POSTHOG_KEY,
);

/**
 * OAuth providers the gateway has a configuration for; null when it did not say (a build served
 * by another server), in which case the spec's buttons are shown.
 */
export const oauthProviders: readonly string[] | null = runtime.OAUTH_PROVIDERS ?? null;
