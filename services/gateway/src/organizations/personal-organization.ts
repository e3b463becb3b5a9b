import type { Prisma, PrismaClient } from '@memtrail/db';

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * The user's personal organisation, created (with the user as its owner) on first use. Named
 * after the user; used when a project is created without choosing an organisation.
 */
export async function personalOrganizationId(db: Db, userId: string): Promise<string> {
  const existing = await db.organization.findUnique({
    where: { personalOwnerId: userId },
    select: { id: true },
  });
  if (existing) return existing.id;
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: { email: true, fullName: true },
  });
  const created = await db.organization.upsert({
    // A concurrent first use creates it once: the second upsert finds the first's row.
    where: { personalOwnerId: userId },
    update: {},
    create: {
      name: user.fullName?.trim() || user.email,
      personalOwnerId: userId,
      members: { create: { userId, role: 'owner', source: 'created' } },
    },
    select: { id: true },
  });
  return created.id;
}
