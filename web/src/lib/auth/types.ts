// The auth surface the app uses in both deployment modes (spec §4, §7). Every call answers with
// an error object carrying a message instead of throwing, like the hosted auth client it mirrors.

export interface AuthUser {
  id?: string;
  email: string;
  created_at?: string;
  user_metadata?: { full_name?: string };
  [field: string]: unknown;
}

export interface AuthSession {
  user: AuthUser;
  access_token: string;
  /** On-premises and cloud sessions both rotate through a refresh token. */
  refresh_token?: string;
  /** Epoch seconds; cloud mode refreshes ahead of it. */
  expires_at?: number;
}

export interface AuthError {
  message: string;
}

export interface AuthResult {
  session: AuthSession | null;
  user: AuthUser | null;
  error: AuthError | null;
}

export type AuthEvent =
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'TOKEN_REFRESHED'
  | 'USER_UPDATED'
  | 'USER_DELETED'
  | 'PASSWORD_RECOVERY';

export type AuthListener = (event: AuthEvent, session: AuthSession | null) => void;

export type OAuthProvider = 'google' | 'github';

export interface AuthBackend {
  getSession(): Promise<AuthSession | null>;
  /** A new session, or null (and stored tokens cleared) when the refresh is refused. */
  refreshSession(): Promise<AuthSession | null>;
  signUp(email: string, password: string, fullName: string): Promise<AuthResult>;
  signIn(email: string, password: string): Promise<AuthResult>;
  signInWithOAuth(provider: OAuthProvider): Promise<{ error: AuthError | null }>;
  signOut(): Promise<{ error: AuthError | null }>;
  resetPassword(email: string): Promise<{ error: AuthError | null }>;
  /** From a mailed reset link its token authorises it; signed in, the current password does. */
  updatePassword(password: string, currentPassword?: string): Promise<{ error: AuthError | null }>;
  /** Returns the unsubscribe function. */
  onAuthStateChange(listener: AuthListener): () => void;
}

/** The slice of `fetch` and `Storage` the backends need, so tests can hand in their own. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
