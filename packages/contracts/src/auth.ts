/**
 * Auth calls of the gateway (product spec §3, §7, §8). Every `/auth/*` answer has the on-premises
 * shape `{success, data, error}`; errors add `type` (the exception kind). Both deployment modes
 * use the same endpoints; they differ in which flows are available (see `AuthSettings`).
 */

export interface AuthUser {
  id: string;
  email: string;
  full_name: string | null;
  /** Sign-up metadata (`full_name` plus the optional extra data of the hosted sign-up). */
  user_metadata: Record<string, unknown>;
  email_confirmed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthSession {
  user: AuthUser;
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  /** Seconds the access token stays valid. */
  expires_in: number;
  /** Unix time (s) at which the access token expires. */
  expires_at: number;
}

export interface AuthResponse<T> {
  success: boolean;
  data: T | null;
  error: string | null;
  /** What to tell the user on success ('Check your email for the confirmation link!', …). */
  message?: string;
  type?: string;
}

/** `POST /auth/signup` in cloud mode answers this until the address is confirmed. */
export interface PendingConfirmation {
  user: AuthUser;
  access_token: null;
  refresh_token: null;
  confirmation_sent: true;
}

export const OAUTH_PROVIDERS = ['github', 'google'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDERS)[number];

/** `GET /auth/settings`: what the sign-in screen may offer in this deployment. */
export interface AuthSettings {
  mode: 'cloud' | 'onprem';
  /** Providers with a configuration; their buttons lead to `GET /auth/oauth/{provider}`. */
  providers: OAuthProviderId[];
  email_confirmation: boolean;
  password_reset: boolean;
}

export interface SignUpRequest {
  email: string;
  password: string;
  full_name?: string;
  /** Hosted sign-up's extra data; `data.full_name` is accepted like `full_name`. */
  data?: Record<string, unknown>;
}
export interface SignInRequest {
  email: string;
  password: string;
}
export interface RefreshRequest {
  refresh_token: string;
}
export interface RecoverRequest {
  email: string;
}
/** `POST /auth/reset-password`: the token from the mailed `/reset-password?token=` link. */
export interface ResetPasswordRequest {
  token: string;
  password: string;
}
export interface UpdatePasswordRequest {
  password: string;
}
/** `POST /auth/token`: the one-time `code` that confirmation and OAuth put on the site root. */
export interface CodeExchangeRequest {
  code: string;
}

/** Texts of spec §8 and the server's own auth messages, word for word on every side. */
export const AUTH_MESSAGES = {
  confirmationSent: 'Check your email for the confirmation link!',
  resetSent: 'Password reset email sent! Check your inbox.',
  oauthOnPrem: 'OAuth not supported in on-premises deployment',
  resetOnPrem: 'Password reset not yet implemented for on-premises deployment',
  updateOnPrem: 'Password update not yet implemented for on-premises deployment',
  invalidCredentials: 'Invalid email or password',
  emailNotConfirmed: 'Email not confirmed',
  emailTaken: 'User already registered',
  currentPasswordWrong: 'The current password is incorrect',
  noPasswordYet:
    'This account has no password yet: choose one through the link that Forgot your password? mails you',
  invalidRefreshToken: 'Invalid refresh token',
  invalidLink: 'The link is invalid or has expired',
  invalidCode: 'The sign-in code is invalid or has expired',
  tooManyRequests: 'Too many requests, try again later',
  oauthState: 'Invalid OAuth state',
  oauthEmail: 'The provider did not return a verified email address',
  oauthUnconfirmedAccount:
    'An account with this email address exists but its address was never confirmed: sign in with its password and confirm it (or reset the password), then sign in with the provider again',
  ssoRequired:
    'Your organization requires single sign-on for this email address: use Sign in with SSO',
} as const;
