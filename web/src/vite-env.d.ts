/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** 'cloud' (default) or 'onprem'. */
  readonly VITE_DEPLOYMENT_MODE?: string;
  /** Core service (gateway) address; defaults to the page's own origin. */
  readonly VITE_CORE_URL?: string;
  /** PostHog project key; analytics is off without it. */
  readonly VITE_POSTHOG_KEY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
