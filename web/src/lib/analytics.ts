import type { PostHog } from 'posthog-js';
import { posthogKey } from './config.ts';
import { pageTypeOf, projectPropsOf } from './pageType.ts';

// Usage analytics (spec §3, §4, §9). posthog-js is imported only once a key is configured, so
// it never weighs on the initial download, and any failure leaves analytics off, never the app.

const US_HOST = 'https://us.i.posthog.com';

interface AnalyticsState {
  initialized: boolean;
  enabled: boolean;
  client: PostHog | null;
}

const state: AnalyticsState = { initialized: false, enabled: false, client: null };
let starting: Promise<void> | null = null;

export function analyticsState(): Readonly<AnalyticsState> {
  return state;
}

/** Starts analytics once; later calls wait for the first. */
export function initAnalytics(): Promise<void> {
  starting ??= start();
  return starting;
}

async function start(): Promise<void> {
  if (!posthogKey) {
    state.initialized = true;
    return;
  }
  try {
    const { default: posthog } = await import('posthog-js');
    // Spec §9 settings. The 60 s request timeout, 24 h maximum session and 60 s quota pause are
    // the SDK's own fixed behaviour; everything else is set explicitly here.
    posthog.init(posthogKey, {
      api_host: US_HOST,
      autocapture: true,
      // Page views carry our own page_name, so the automatic one is off.
      capture_pageview: false,
      disable_session_recording: false,
      session_recording: {
        captureCanvas: { recordCanvas: true, canvasFps: 4, canvasQuality: '0.4' },
      },
      respect_dnt: true,
      persistence: 'localStorage+cookie',
      cross_subdomain_cookie: true,
      secure_cookie: window.location.protocol === 'https:',
      cookie_expiration: 365,
      session_idle_timeout_seconds: 1800,
      rate_limiting: { events_per_second: 10, events_burst_limit: 100 },
      properties_string_max_length: 65_535,
      rageclick: { threshold_px: 30, click_count: 3, timeout_ms: 1000 },
      capture_heatmaps: { flush_interval_milliseconds: 5000 },
      capture_performance: { web_vitals: true, web_vitals_delayed_flush_ms: 5000 },
    });
    state.client = posthog;
    state.enabled = true;
  } catch (error) {
    console.error('PostHog: Failed to initialize', error);
  } finally {
    state.initialized = true;
  }
}

function withClient(action: string, apply: (client: PostHog) => void) {
  if (!state.enabled || !state.client) return;
  try {
    apply(state.client);
  } catch (error) {
    console.error(`PostHog: Failed to ${action}`, error);
  }
}

export interface AnalyticsUser {
  id?: string;
  email: string;
  created_at?: string;
}

export function identifyUser(user: AnalyticsUser) {
  withClient('identify user', (client) => {
    client.identify(user.id ?? user.email, { email: user.email, created_at: user.created_at });
    client.capture('user_signed_in', { email: user.email, user_id: user.id });
  });
}

export function resetUser() {
  withClient('reset user', (client) => client.reset());
}

export function trackPage(pathname: string, pageName: string) {
  withClient('capture page view', (client) => {
    const props = projectPropsOf(pathname);
    const pageType = pageTypeOf(pathname);
    if (!props.project_id) client.unregister('project_id');
    if (!props.target_name) client.unregister('target_name');
    client.register({ ...props, ...(pageType ? { page_type: pageType } : {}) });
    client.capture('$pageview', { page_name: pageName, $current_url: window.location.href });
  });
}
