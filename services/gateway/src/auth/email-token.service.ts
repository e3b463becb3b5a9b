import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient, type EmailTokenPurpose, type Prisma } from '@memtrail/db';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token.js';

const LIFETIME_MS: Record<EmailTokenPurpose, number> = {
  confirm: 24 * 3600_000,
  reset: 3600_000,
};

/** Single-use tokens for mailed links; only their hash is stored. */
@Injectable()
export class EmailTokenService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** Pass a transaction client to create the token with the row it belongs to. */
  async create(
    userId: string,
    purpose: EmailTokenPurpose,
    db: PrismaClient | Prisma.TransactionClient = this.prisma,
  ): Promise<string> {
    const token = newOpaqueToken();
    await db.emailToken.create({
      data: {
        userId,
        purpose,
        tokenHash: hashOpaqueToken(token),
        expiresAt: new Date(Date.now() + LIFETIME_MS[purpose]),
      },
    });
    return token;
  }

  /** Spends every unused token of a user for `purpose`, so no older link works any more. */
  async revokeAll(userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await this.prisma.emailToken.updateMany({
      where: { userId, purpose, usedAt: null },
      data: { usedAt: new Date() },
    });
  }

  /**
   * Marks the token used and returns its user, or null when it is unknown, spent, expired or for
   * another purpose. The conditional update makes a second use fail even when concurrent.
   */
  async consume(token: string, purpose: EmailTokenPurpose): Promise<string | null> {
    const tokenHash = hashOpaqueToken(token);
    const now = new Date();
    const used = await this.prisma.emailToken.updateMany({
      where: { tokenHash, purpose, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count === 0) return null;
    const row = await this.prisma.emailToken.findUnique({
      where: { tokenHash },
      select: { userId: true },
    });
    return row?.userId ?? null;
  }
}
