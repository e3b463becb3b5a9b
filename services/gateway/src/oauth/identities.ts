import { AUTH_MESSAGES, normalizeEmail, validateEmail } from '@memtrail/contracts';
import type { Prisma, PrismaClient, User } from '@memtrail/db';
import type { ProviderProfile } from './oauth-client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** A provider identity that cannot sign in; `code` goes to the browser as `?error=`. */
export class IdentityError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The user a provider identity signs in: the one it was linked to before, else the account with
 * the same (verified) email address — only when that account's address was confirmed, so an
 * account someone else registered with the address can never capture the identity — else a new
 * account, confirmed by the provider's proof.
 */
export async function userForIdentity(
  db: Db,
  provider: string,
  profile: ProviderProfile,
  emailTrusted = profile.emailVerified,
): Promise<User> {
  const email = normalizeEmail(profile.email);
  if (!profile.subject || !emailTrusted || validateEmail(email)) {
    throw new IdentityError('unverified_email', AUTH_MESSAGES.oauthEmail);
  }
  const identity = await db.oAuthIdentity.findUnique({
    where: { provider_subject: { provider, subject: profile.subject } },
    include: { user: true },
  });
  if (identity) return identity.user;
  const existing = await db.user.findUnique({ where: { email } });
  if (existing && !existing.emailConfirmedAt) {
    throw new IdentityError('unconfirmed_account', AUTH_MESSAGES.oauthUnconfirmedAccount);
  }
  const user =
    existing ??
    (await db.user.create({
      data: { email, fullName: profile.name, emailConfirmedAt: new Date() },
    }));
  await db.oAuthIdentity.create({
    data: { userId: user.id, provider, subject: profile.subject, email },
  });
  return user;
}
