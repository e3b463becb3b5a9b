import { TokenStore } from './tokenStore.ts';
import type {
  AuthBackend,
  AuthResult,
  AuthSession,
  AuthUser,
  FetchLike,
  StorageLike,
} from './types.ts';

/** Body of /auth/login and /auth/signup (spec §7). */
interface TokenResponse {
  success?: boolean;
  data?: { user?: AuthUser; access_token?: string; refresh_token?: string } | null;
  error?: string | null;
}

export const ONPREM_MESSAGES = {
  loginFailed: 'Login failed',
  signupFailed: 'Signup failed',
  invalidResponse: 'Invalid response from server',
  signInFailed: 'Sign in failed',
  signUpFailed: 'Sign up failed',
  oauth: 'OAuth not supported in on-premises deployment',
  reset: 'Password reset not yet implemented for on-premises deployment',
  update: 'Password update not yet implemented for on-premises deployment',
} as const;

const failed = (message: string): AuthResult => ({
  session: null,
  user: null,
  error: { message },
});

/**
 * On-premises auth: the product's own JWT endpoints under `{coreUrl}/auth`, tokens and user kept
 * in browser storage. There is no server push, so subscribing to auth changes does nothing.
 */
export function createOnpremAuth(options: {
  coreUrl: string;
  storage: StorageLike;
  fetch?: FetchLike;
}): AuthBackend {
  const tokens = new TokenStore(options.storage);
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const post = (path: string, body: unknown) =>
    fetchFn(`${options.coreUrl}/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });

  async function exchange(
    path: 'login' | 'signup',
    email: string,
    password: string,
    messages: { rejected: string; network: string },
  ): Promise<AuthResult> {
    try {
      const response = await post(path, { email, password });
      const body = (await response.json().catch(() => ({}))) as TokenResponse;
      if (!response.ok || !body.success) return failed(body.error || messages.rejected);
      const { user, access_token, refresh_token } = body.data ?? {};
      if (!user || !access_token) return failed(ONPREM_MESSAGES.invalidResponse);
      const session: AuthSession = { user, access_token, refresh_token };
      tokens.write(session);
      return { session, user, error: null };
    } catch (error) {
      return failed((error instanceof Error && error.message) || messages.network);
    }
  }

  return {
    getSession: async () => tokens.read(),

    async refreshSession() {
      const current = tokens.read();
      const refreshToken = tokens.refreshToken();
      if (!current || !refreshToken) {
        tokens.clear();
        return null;
      }
      try {
        const response = await post('refresh', { refresh_token: refreshToken });
        const body = (await response.json().catch(() => ({}))) as TokenResponse;
        const accessToken = body.data?.access_token;
        if (!response.ok || !body.success || !accessToken) throw new Error(body.error || 'refused');
        // The server rotates refresh tokens; keep the new one when it sends one.
        const session: AuthSession = {
          user: body.data?.user ?? current.user,
          access_token: accessToken,
          refresh_token: body.data?.refresh_token ?? refreshToken,
        };
        tokens.write(session);
        return session;
      } catch {
        tokens.clear();
        return null;
      }
    },

    signIn: (email, password) =>
      exchange('login', email, password, {
        rejected: ONPREM_MESSAGES.loginFailed,
        network: ONPREM_MESSAGES.signInFailed,
      }),

    // Spec §7: the on-premises signup payload is email and password only.
    signUp: (email, password) =>
      exchange('signup', email, password, {
        rejected: ONPREM_MESSAGES.signupFailed,
        network: ONPREM_MESSAGES.signUpFailed,
      }),

    signInWithOAuth: async () => ({ error: { message: ONPREM_MESSAGES.oauth } }),

    async signOut() {
      const refreshToken = tokens.refreshToken();
      try {
        if (refreshToken) await post('logout', { refresh_token: refreshToken });
      } catch (error) {
        // The local sign-out below must happen whatever the server says.
        console.warn('Sign out request failed', error);
      } finally {
        tokens.clear();
      }
      return { error: null };
    },

    resetPassword: async () => ({ error: { message: ONPREM_MESSAGES.reset } }),
    updatePassword: async () => ({ error: { message: ONPREM_MESSAGES.update } }),
    onAuthStateChange: () => () => {},
  };
}
