/**
 * What the gateway hands the web app at page load, as `window.__MEMTRAIL_CONFIG__` set by an
 * inline script in index.html, so one build of the app serves every deployment. Unset fields
 * fall back to the app's build-time values and then to the defaults of spec §9.
 */
export interface WebRuntimeConfig {
  DEPLOYMENT_MODE?: string;
  CORE_URL?: string;
  POSTHOG_KEY?: string;
  /** OAuth providers with a configuration: the sign-in buttons an on-premises screen offers. */
  OAUTH_PROVIDERS?: string[];
}
