/**
 * Auth calls of the gateway (product spec §3, §7, §8). Every `/auth/*` answer has the on-premises
 * shape `{success, data, error}`; errors add `type` (the exception kind). Both deployment modes
 * use the same endpoints; they differ in which flows are available (see `AuthSettings`).
 */

export interface AuthResponse<T> {
  success: boolean;
  data: T | null;
  error: string | null;
  /** What to tell the user on success ('Check your email for the confirmation link!', …). */
  message?: string;
  type?: string;
}

export const OAUTH_PROVIDERS = ['github', 'google'] as const;

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
