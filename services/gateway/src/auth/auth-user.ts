import type { AuthUser } from '@memtrail/contracts';
import type { User } from '@memtrail/db';

/** What an answer shows of a user (also of one that was never stored). */
export type ShownUser = Pick<
  User,
  'id' | 'email' | 'fullName' | 'metadata' | 'emailConfirmedAt' | 'createdAt' | 'updatedAt'
>;

/** The user as every auth answer shows it; never includes the password hash. */
export function toAuthUser(user: ShownUser): AuthUser {
  const metadata = (user.metadata ?? {}) as Record<string, unknown>;
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    user_metadata: { ...metadata, ...(user.fullName !== null && { full_name: user.fullName }) },
    email_confirmed_at: user.emailConfirmedAt?.toISOString() ?? null,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
