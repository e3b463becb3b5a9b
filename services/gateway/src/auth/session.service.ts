import { randomUUID } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AUTH_MESSAGES, type AuthSession } from '@memtrail/contracts';
import { PrismaClient, SqlPool, type User } from '@memtrail/db';
import { GatewayConfig } from '../config.js';
import { toAuthUser } from './auth-user.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const JWT_ISSUER = 'memtrail';
export const JWT_AUDIENCE = 'memtrail';

/** Claims of an access token; `sub` is the user id, `sid` its session (refresh-token family). */
export interface AccessClaims {
  sub: string;
  email: string;
  sid: string;
}

/**
 * Sessions: a short-lived HS256 access JWT plus an opaque refresh token stored as a row. Each
 * refresh replaces the row (rotation); a token presented again after it was replaced or revoked
 * means it leaked, so its whole family (every token descended from one sign-in) is revoked.
 * Access tokens name their family, and are refused as soon as it is revoked (`isLive`): sign-out,
 * reuse of a refresh token and a password change end sessions at once, not at token expiry.
 */
@Injectable()
export class SessionService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly jwt: JwtService,
    // Checked on every authenticated request: plain SQL keeps that off Prisma's per-query cost.
    @Inject(SqlPool) private readonly sql: SqlPool,
  ) {}

  /** Starts a new session family for a user who just proved who they are. */
  async start(user: User): Promise<AuthSession> {
    const refreshToken = newOpaqueToken();
    const familyId = randomUUID();
    await this.prisma.refreshToken.create({
      data: {
        userId: user.id,
        tokenHash: hashOpaqueToken(refreshToken),
        familyId,
        expiresAt: this.refreshExpiry(),
      },
    });
    return this.session(user, refreshToken, familyId);
  }

  /** Exchanges a refresh token for a new session; reuse of a spent token revokes its family. */
  async refresh(refreshToken: string): Promise<AuthSession> {
    const row = await this.prisma.refreshToken.findUnique({
      where: { tokenHash: hashOpaqueToken(refreshToken) },
      include: { user: true },
    });
    if (!row) throw new UnauthorizedException(AUTH_MESSAGES.invalidRefreshToken);
    if (row.revokedAt || row.replacedById) {
      await this.revokeFamily(row.familyId);
      throw new UnauthorizedException(AUTH_MESSAGES.invalidRefreshToken);
    }
    if (row.expiresAt.getTime() <= Date.now()) {
      throw new UnauthorizedException(AUTH_MESSAGES.invalidRefreshToken);
    }
    const next = newOpaqueToken();
    try {
      await this.prisma.$transaction(async (tx) => {
        const created = await tx.refreshToken.create({
          data: {
            userId: row.userId,
            tokenHash: hashOpaqueToken(next),
            familyId: row.familyId,
            expiresAt: this.refreshExpiry(),
          },
        });
        // Conditional on the row still being live: of two concurrent refreshes with one token,
        // exactly one wins; the loser is treated as reuse.
        const spent = await tx.refreshToken.updateMany({
          where: { id: row.id, revokedAt: null, replacedById: null },
          data: { revokedAt: new Date(), replacedById: created.id },
        });
        if (spent.count === 0) throw new UnauthorizedException(AUTH_MESSAGES.invalidRefreshToken);
      });
    } catch (error) {
      if (error instanceof UnauthorizedException) await this.revokeFamily(row.familyId);
      throw error;
    }
    return this.session(row.user, next, row.familyId);
  }

  /** Sign-out: ends the session the refresh token belongs to. Unknown tokens are ignored. */
  async end(refreshToken: string): Promise<void> {
    const row = await this.prisma.refreshToken.findUnique({
      where: { tokenHash: hashOpaqueToken(refreshToken) },
      select: { familyId: true },
    });
    if (row) await this.revokeFamily(row.familyId);
  }

  /** After a password change or reset every other session must stop working. */
  async endAllForUser(userId: string): Promise<void> {
    await this.prisma.refreshToken.updateMany({
      where: { userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }

  /**
   * Whether a session still stands: its family has a refresh token that is neither spent nor
   * expired (rotation always leaves exactly one). One indexed lookup per authenticated request.
   */
  async isLive(familyId: string): Promise<boolean> {
    if (!UUID.test(familyId)) return false;
    const { rowCount } = await this.sql.query({
      name: 'session-live',
      text: `SELECT 1 FROM refresh_tokens
             WHERE family_id = $1::uuid AND revoked_at IS NULL AND expires_at > now() LIMIT 1`,
      values: [familyId],
    });
    return rowCount === 1;
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.prisma.refreshToken.updateMany({
      where: { familyId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }

  private refreshExpiry(): Date {
    return new Date(Date.now() + this.config.REFRESH_TOKEN_TTL_S * 1000);
  }

  private async session(user: User, refreshToken: string, familyId: string): Promise<AuthSession> {
    const ttl = this.config.ACCESS_TOKEN_TTL_S;
    const claims: AccessClaims = { sub: user.id, email: user.email, sid: familyId };
    const accessToken = await this.jwt.signAsync(claims, {
      algorithm: 'HS256',
      expiresIn: ttl,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
    });
    return {
      user: toAuthUser(user),
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'bearer',
      expires_in: ttl,
      expires_at: Math.floor(Date.now() / 1000) + ttl,
    };
  }
}
