import { STORAGE_KEYS } from '../storageKeys.ts';
import type {
  AuthBackend,
  AuthEvent,
  AuthListener,
  AuthResult,
  AuthSession,
  AuthUser,
  FetchLike,
  OAuthProvider,
  StorageLike,
} from './types.ts';

/**
 * Gateway endpoints of the cloud-mode flows (packages/contracts auth.ts): confirmation mail,
 * password reset and update, OAuth. The gateway runs the PKCE exchange with the provider and
 * lands on the site root with a one-time `?code=`, as the confirmation link does.
 */
export const CLOUD_AUTH_PATHS = {
  signup: '/auth/signup',
  login: '/auth/login',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
  recover: '/auth/recover',
  resetPassword: '/auth/reset-password',
  password: '/auth/password',
  oauth: (provider: OAuthProvider) => `/auth/oauth/${provider}`,
  token: '/auth/token',
} as const;

// Hosted auth client constants (spec §9).
export const REFRESH_TICK_MS = 30_000;
export const REFRESH_TICKS_AHEAD = 3;
export const EXPIRY_MARGIN_S = 90;
const RETRY_BASE_MS = 200;
const RETRY_ATTEMPTS = 4;
const RETRYABLE = new Set([502, 503, 504]);

interface TokenBody {
  success?: boolean;
  data?: {
    user?: AuthUser;
    access_token?: string;
    refresh_token?: string;
    /** Seconds until the access token expires, and the Unix time (s) it does. */
    expires_in?: number;
    expires_at?: number;
  } | null;
  error?: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Cloud mode: our gateway's hosted-style auth. The session persists under one storage key,
 * refreshes itself ahead of expiry and reports changes to subscribers.
 */
export function createCloudAuth(options: {
  coreUrl: string;
  storage: StorageLike;
  fetch?: FetchLike;
  redirect?: (url: string) => void;
}): AuthBackend {
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const listeners = new Set<AuthListener>();
  let session: AuthSession | null = load();
  let ticker: ReturnType<typeof setInterval> | undefined;
  let pendingRedirect: Promise<void> | null = null;

  function load(): AuthSession | null {
    const raw = options.storage.getItem(STORAGE_KEYS.hostedSession);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as AuthSession;
    } catch {
      options.storage.removeItem(STORAGE_KEYS.hostedSession);
      return null;
    }
  }

  function emit(event: AuthEvent) {
    for (const listener of listeners) listener(event, session);
  }

  function store(next: AuthSession | null, event: AuthEvent) {
    session = next;
    if (next) options.storage.setItem(STORAGE_KEYS.hostedSession, JSON.stringify(next));
    else options.storage.removeItem(STORAGE_KEYS.hostedSession);
    if (next) startTicker();
    else stopTicker();
    emit(event);
  }

  /** Calls the gateway, retrying gateway-unavailable answers with doubling back-off. */
  async function call(
    path: string,
    init: { method: string; body?: unknown; token?: string },
  ): Promise<{ response: Response; body: TokenBody }> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetchFn(`${options.coreUrl}${path}`, {
        method: init.method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (RETRYABLE.has(response.status) && attempt < RETRY_ATTEMPTS) {
        await sleep(RETRY_BASE_MS * 2 ** attempt);
        continue;
      }
      const body = (await response.json().catch(() => ({}))) as TokenBody;
      return { response, body };
    }
  }

  const errorOf = (response: Response, body: TokenBody, fallback: string) =>
    !response.ok || body.success === false ? { message: body.error || fallback } : null;

  function sessionFrom(body: TokenBody): AuthSession | null {
    const data = body.data;
    if (!data?.user || !data.access_token) return null;
    return {
      user: data.user,
      access_token: data.access_token,
      refresh_token: data.refresh_token,
      expires_at: data.expires_at ?? expiryFrom(data.expires_in),
    };
  }

  async function refresh(): Promise<AuthSession | null> {
    if (!session?.refresh_token) {
      if (session) store(null, 'SIGNED_OUT');
      return null;
    }
    try {
      const { response, body } = await call(CLOUD_AUTH_PATHS.refresh, {
        method: 'POST',
        body: { refresh_token: session.refresh_token },
      });
      const next = errorOf(response, body, 'refresh refused') ? null : sessionFrom(body);
      if (!next && body.data?.access_token && session) {
        // Servers may answer a refresh with tokens only; the user is unchanged.
        store(
          {
            ...session,
            access_token: body.data.access_token,
            refresh_token: body.data.refresh_token ?? session.refresh_token,
            expires_at: body.data.expires_at ?? expiryFrom(body.data.expires_in),
          },
          'TOKEN_REFRESHED',
        );
        return session;
      }
      store(next, next ? 'TOKEN_REFRESHED' : 'SIGNED_OUT');
      return next;
    } catch (error) {
      console.warn('Session refresh failed', error);
      store(null, 'SIGNED_OUT');
      return null;
    }
  }

  function expiresSoon(current: AuthSession): boolean {
    if (!current.expires_at) return false;
    const marginS = Math.max(EXPIRY_MARGIN_S, (REFRESH_TICK_MS * REFRESH_TICKS_AHEAD) / 1000);
    return current.expires_at - Date.now() / 1000 < marginS;
  }

  function startTicker() {
    if (ticker || typeof window === 'undefined') return;
    ticker = setInterval(() => {
      if (session && expiresSoon(session)) void refresh();
    }, REFRESH_TICK_MS);
  }

  function stopTicker() {
    clearInterval(ticker);
    ticker = undefined;
  }

  /**
   * Back at the site root from OAuth or an email confirmation with `?code=` (or `?error=`):
   * trade the code for a session and take it out of the address bar.
   */
  async function completeRedirect(): Promise<void> {
    if (typeof window === 'undefined' || window.location.pathname !== '/') return;
    const url = new URL(window.location.href);
    const code = url.searchParams.get('code');
    const failure = url.searchParams.get('error_description') ?? url.searchParams.get('error');
    if (!code && !failure) return;
    for (const key of ['code', 'error', 'error_description']) url.searchParams.delete(key);
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    if (failure || !code) {
      console.warn('Sign-in redirect failed', failure);
      return;
    }
    const { response, body } = await call(CLOUD_AUTH_PATHS.token, {
      method: 'POST',
      body: { code },
    });
    const next = errorOf(response, body, 'Sign in failed') ? null : sessionFrom(body);
    if (next) store(next, 'SIGNED_IN');
    else console.warn('Sign-in code exchange failed', body.error);
  }

  return {
    async getSession() {
      pendingRedirect ??= completeRedirect().catch((error: unknown) =>
        console.warn('Sign-in code exchange failed', error),
      );
      await pendingRedirect;
      if (session && expiresSoon(session)) return refresh();
      if (session) startTicker();
      return session;
    },

    refreshSession: refresh,

    async signUp(email, password, fullName) {
      try {
        const { response, body } = await call(CLOUD_AUTH_PATHS.signup, {
          method: 'POST',
          body: { email, password, data: { full_name: fullName } },
        });
        const error = errorOf(response, body, 'Sign up failed');
        if (error) return { session: null, user: null, error };
        // Without a session the account waits for its email confirmation.
        const next = sessionFrom(body);
        if (next) store(next, 'SIGNED_IN');
        return { session: next, user: body.data?.user ?? null, error: null };
      } catch (error) {
        return failed(error, 'Sign up failed');
      }
    },

    async signIn(email, password) {
      try {
        const { response, body } = await call(CLOUD_AUTH_PATHS.login, {
          method: 'POST',
          body: { email, password },
        });
        const error = errorOf(response, body, 'Sign in failed');
        if (error) return { session: null, user: null, error };
        const next = sessionFrom(body);
        if (!next) return failed(null, 'Invalid response from server');
        store(next, 'SIGNED_IN');
        return { session: next, user: next.user, error: null };
      } catch (error) {
        return failed(error, 'Sign in failed');
      }
    },

    async signInWithOAuth(provider) {
      const go = options.redirect ?? ((url: string) => window.location.assign(url));
      go(`${options.coreUrl}${CLOUD_AUTH_PATHS.oauth(provider)}`);
      return { error: null };
    },

    async signOut() {
      const current = session;
      store(null, 'SIGNED_OUT');
      if (!current?.refresh_token) return { error: null };
      try {
        const { response, body } = await call(CLOUD_AUTH_PATHS.logout, {
          method: 'POST',
          body: { refresh_token: current.refresh_token },
          token: current.access_token,
        });
        return { error: errorOf(response, body, 'Sign out failed') };
      } catch (error) {
        return { error: { message: error instanceof Error ? error.message : 'Sign out failed' } };
      }
    },

    async resetPassword(email) {
      try {
        const { response, body } = await call(CLOUD_AUTH_PATHS.recover, {
          method: 'POST',
          body: { email },
        });
        return { error: errorOf(response, body, 'Password reset failed') };
      } catch (error) {
        return {
          error: { message: error instanceof Error ? error.message : 'Password reset failed' },
        };
      }
    },

    async updatePassword(password, currentPassword) {
      // From the mailed link its token authorises it; signed in, the session and the current
      // password do (a session alone must not be able to take the account over).
      const token = new URLSearchParams(window.location.search).get('token');
      const request = token
        ? { path: CLOUD_AUTH_PATHS.resetPassword, method: 'POST', body: { token, password } }
        : session
          ? {
              path: CLOUD_AUTH_PATHS.password,
              method: 'PUT',
              body: { current_password: currentPassword ?? '', password },
              token: session.access_token,
            }
          : null;
      if (!request) return { error: { message: 'No active session' } };
      try {
        const { path, ...init } = request;
        const { response, body } = await call(path, init);
        const error = errorOf(response, body, 'Password update failed');
        // The server ends other sessions and hands back a fresh one.
        const next = error ? null : sessionFrom(body);
        if (next) store(next, 'USER_UPDATED');
        return { error };
      } catch (error) {
        return {
          error: { message: error instanceof Error ? error.message : 'Password update failed' },
        };
      }
    },

    onAuthStateChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function expiryFrom(expiresIn: number | undefined): number | undefined {
  return expiresIn ? Math.floor(Date.now() / 1000) + expiresIn : undefined;
}

function failed(error: unknown, fallback: string): AuthResult {
  const message = (error instanceof Error && error.message) || fallback;
  return { session: null, user: null, error: { message } };
}
