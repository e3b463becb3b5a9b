import { z } from 'zod';
import { OAUTH_PROVIDERS } from '../auth.js';
import {
  normalizeEmail,
  validateEmail,
  validateFullName,
  validatePassword,
  VALIDATION_MESSAGES,
} from '../validation.js';
import { isoTime } from './common.js';
import { requiredField, textField } from './inputs.js';

/**
 * Auth calls of the gateway (product spec §3, §7, §8). Every `/auth/*` answer has the on-premises
 * shape `{success, data, error}`; errors add `type` (the exception kind). Both deployment modes
 * use the same endpoints; they differ in which flows are available (see `AuthSettings`).
 */

export const AuthUser = z
  .object({
    id: z.string(),
    email: z.string(),
    full_name: z.string().nullable(),
    user_metadata: z
      .record(z.string(), z.unknown())
      .describe('Sign-up metadata (full_name plus the optional extra data of the hosted sign-up)'),
    email_confirmed_at: isoTime.nullable(),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'AuthUser' });
export type AuthUser = z.infer<typeof AuthUser>;

export const AuthSession = z
  .object({
    user: AuthUser,
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.int().describe('Seconds the access token stays valid'),
    expires_at: z.int().describe('Unix time (s) at which the access token expires'),
  })
  .meta({ id: 'AuthSession' });
export type AuthSession = z.infer<typeof AuthSession>;

/** `POST /auth/signup` in cloud mode answers this until the address is confirmed. */
export const PendingConfirmation = z
  .object({
    user: AuthUser,
    access_token: z.null(),
    refresh_token: z.null(),
    confirmation_sent: z.literal(true),
  })
  .meta({ id: 'PendingConfirmation' });
export type PendingConfirmation = z.infer<typeof PendingConfirmation>;

export const OAuthProviderId = z.enum(OAUTH_PROVIDERS);
export type OAuthProviderId = z.infer<typeof OAuthProviderId>;

/** `GET /auth/settings`: what the sign-in screen may offer in this deployment. */
export const AuthSettings = z
  .object({
    mode: z.enum(['cloud', 'onprem']),
    providers: z
      .array(OAuthProviderId)
      .describe('Providers with a configuration; their buttons lead to GET /auth/oauth/{provider}'),
    email_confirmation: z.boolean(),
    password_reset: z.boolean(),
  })
  .meta({ id: 'AuthSettings' });
export type AuthSettings = z.infer<typeof AuthSettings>;

/** `{success: true, data, error: null, message?}`: every successful `/auth/*` answer. */
export function authSuccess<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    error: z.null(),
    message: z
      .string()
      .optional()
      .describe("What to tell the user ('Check your email for the confirmation link!', …)"),
  });
}

export const AuthError = z
  .object({
    success: z.literal(false),
    data: z.null(),
    error: z.string(),
    type: z.string().describe('The exception kind, e.g. BadRequestError'),
  })
  .meta({ id: 'AuthError' });
export type AuthError = z.infer<typeof AuthError>;

// ------------------------------------------------------------------------------------------
// requests: the same rules and words as the web forms (spec §5); the first failing rule
// answers 400 before anything is written.
// ------------------------------------------------------------------------------------------

const email = textField(VALIDATION_MESSAGES.email, validateEmail)
  .transform(normalizeEmail)
  .meta({ format: 'email', maxLength: 254 });
const newPassword = textField(VALIDATION_MESSAGES.passwordRequired, (password) =>
  validatePassword(password, 'signup'),
).meta({
  minLength: 8,
  maxLength: 128,
  description: 'At least one lowercase and uppercase letter, digit and one of @$!%*?&',
});
const fullName = textField(VALIDATION_MESSAGES.fullNameRequired, validateFullName)
  .transform((name) => name.trim())
  .meta({ maxLength: 100 });

export const SignUpRequest = z
  .object({
    email,
    password: newPassword,
    full_name: fullName.nullish(),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .catch(undefined)
      .describe("Hosted sign-up's extra data; data.full_name is accepted like full_name"),
  })
  .superRefine((body, ctx) => {
    // The hosted sign-up sends the name inside data: checked like full_name.
    const nested = body.data?.full_name;
    if (body.full_name != null || nested === undefined) return;
    const problem = validateFullName(typeof nested === 'string' ? nested : '');
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['data', 'full_name'] });
  })
  .transform(({ email, password, full_name, data }) => {
    const { full_name: nested, ...metadata } = data ?? {};
    const name = full_name ?? (typeof nested === 'string' ? nested.trim() : null);
    return { email, password, fullName: name, metadata };
  })
  .meta({ id: 'SignUpRequest' });

export const SignInRequest = z
  .object({
    email,
    password: textField(VALIDATION_MESSAGES.passwordRequired, (password) =>
      validatePassword(password, 'signin'),
    ),
  })
  .meta({ id: 'SignInRequest' });

export const RefreshRequest = z
  .object({ refresh_token: requiredField('refresh_token', VALIDATION_MESSAGES.required) })
  .meta({ id: 'RefreshRequest' });

export const RecoverRequest = z.object({ email }).meta({ id: 'RecoverRequest' });

/** `POST /auth/reset-password`: the token from the mailed `/reset-password?token=` link. */
export const ResetPasswordRequest = z
  .object({
    password: newPassword,
    token: requiredField('token', VALIDATION_MESSAGES.required),
  })
  .meta({ id: 'ResetPasswordRequest' });

/** A password change needs the current one, as typed (passwords are never trimmed). */
export const UpdatePasswordRequest = z
  .object({
    current_password: z
      .string({ error: `current_password: ${VALIDATION_MESSAGES.required}` })
      .min(1, `current_password: ${VALIDATION_MESSAGES.required}`),
    password: newPassword,
  })
  .meta({ id: 'UpdatePasswordRequest' });

/** `POST /auth/token`: the one-time `code` that confirmation and OAuth put on the site root. */
export const CodeExchangeRequest = z
  .object({ code: requiredField('code', VALIDATION_MESSAGES.required) })
  .meta({ id: 'CodeExchangeRequest' });

/** `GET /auth/sso?email=` or `?organization=`: where SSO sign-in starts. */
export const SsoStartQuery = z.object({
  email: z
    .string({ error: 'email must be given once' })
    .optional()
    .describe('The address whose organisation signs it in'),
  organization: z
    .string({ error: 'organization must be given once' })
    .optional()
    .describe('Organization id'),
});
