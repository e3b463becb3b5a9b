import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { deploymentMode, type DeploymentMode } from '../config.ts';
import { authBackend } from './backend.ts';
import type { AuthError, AuthResult, AuthSession, AuthUser, OAuthProvider } from './types.ts';

/** Spec §9: the session is refreshed every 45 minutes. */
export const SESSION_REFRESH_MS = 2_700_000;

export interface AuthContextValue {
  mode: DeploymentMode;
  loading: boolean;
  session: AuthSession | null;
  user: AuthUser | null;
  signIn(email: string, password: string): Promise<AuthResult>;
  signUp(email: string, password: string, fullName: string): Promise<AuthResult>;
  signOut(): Promise<void>;
  signInWithOAuth(provider: OAuthProvider): Promise<{ error: AuthError | null }>;
  resetPassword(email: string): Promise<{ error: AuthError | null }>;
  /** From a mailed reset link its token authorises it; signed in, the current password does. */
  updatePassword(password: string, currentPassword?: string): Promise<{ error: AuthError | null }>;
  /** Drops the session locally, e.g. when the API client could not refresh it. */
  clearSession(): void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<AuthSession | null>(null);
  const [loading, setLoading] = useState(true);
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const stopRefresh = useCallback(() => {
    clearInterval(timer.current);
    timer.current = undefined;
  }, []);

  const clearSession = useCallback(() => {
    setSession(null);
    stopRefresh();
  }, [stopRefresh]);

  const startRefresh = useCallback(() => {
    stopRefresh();
    timer.current = setInterval(() => {
      void authBackend.refreshSession().then((next) => {
        if (next) {
          setSession(next);
          return;
        }
        console.warn('Session refresh failed; signing out');
        clearSession();
      });
    }, SESSION_REFRESH_MS);
  }, [stopRefresh, clearSession]);

  useEffect(() => {
    let active = true;
    void authBackend
      .getSession()
      .then((initial) => {
        if (!active) return;
        setSession(initial);
        if (initial) startRefresh();
      })
      .catch((error: unknown) => console.warn('Reading the stored session failed', error))
      .finally(() => active && setLoading(false));

    const unsubscribe = authBackend.onAuthStateChange((event, next) => {
      if (event === 'SIGNED_OUT' || event === 'USER_DELETED' || !next) {
        clearSession();
        return;
      }
      setSession(next);
      if (event === 'SIGNED_IN') startRefresh();
    });
    return () => {
      active = false;
      unsubscribe();
      stopRefresh();
    };
  }, [startRefresh, stopRefresh, clearSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      mode: deploymentMode,
      loading,
      session,
      user: session?.user ?? null,
      async signIn(email, password) {
        const result = await authBackend.signIn(email, password);
        if (result.session) {
          setSession(result.session);
          startRefresh();
        }
        return result;
      },
      async signUp(email, password, fullName) {
        const result = await authBackend.signUp(email, password, fullName);
        if (result.session) {
          setSession(result.session);
          startRefresh();
        }
        return result;
      },
      async signOut() {
        const { error } = await authBackend.signOut();
        // Spec §8: a failed sign-out is only logged; the local session ends regardless.
        if (error) console.error('Sign out failed', error.message);
        clearSession();
      },
      signInWithOAuth: (provider) => authBackend.signInWithOAuth(provider),
      resetPassword: (email) => authBackend.resetPassword(email),
      updatePassword: (password, currentPassword) =>
        authBackend.updatePassword(password, currentPassword),
      clearSession,
    }),
    [loading, session, startRefresh, clearSession],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
