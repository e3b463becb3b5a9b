import { randomUUID } from 'node:crypto';
import {
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  NotImplementedException,
  UnauthorizedException,
} from '@nestjs/common';
import {
  AUTH_MESSAGES,
  type AuthSession,
  type AuthSettings,
  type AuthUser,
  type PendingConfirmation,
} from '@memtrail/contracts';
import { Prisma, PrismaClient, type User } from '@memtrail/db';
import { GatewayConfig } from '../config.js';
import { MailService } from '../mail/mail.service.js';
import { accountExistsMail, confirmationMail, resetMail } from '../mail/templates.js';
import { configuredProviders } from '../oauth/oauth-providers.js';
import { SsoPolicy } from '../sso/sso-policy.service.js';
import { toAuthUser } from './auth-user.js';
import type { BodyOf } from '../http/input.js';
import { EmailTokenService } from './email-token.service.js';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './password-hash.js';
import { SessionHandoffService } from './session-handoff.service.js';
import { SessionService } from './session.service.js';

export function publicUrl(config: GatewayConfig): string {
  return (config.PUBLIC_URL ?? config.CORE_URL).replace(/\/+$/, '');
}

/**
 * Password accounts in both deployment modes. Cloud mode confirms addresses by mail before the
 * first sign-in; on-premises sign-up signs in at once (spec §7). Password reset needs mail, so
 * on-premises it is available only when SMTP is configured.
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly sessions: SessionService,
    private readonly emailTokens: EmailTokenService,
    private readonly handoff: SessionHandoffService,
    private readonly mail: MailService,
    private readonly sso: SsoPolicy,
  ) {}

  settings(): AuthSettings {
    return {
      mode: this.config.DEPLOYMENT_MODE,
      providers: configuredProviders(this.config).map((p) => p.id),
      email_confirmation: this.requiresConfirmation,
      password_reset: this.resetAvailable,
    };
  }

  async signUp(input: BodyOf<'POST /auth/signup'>): Promise<AuthSession | PendingConfirmation> {
    const passwordHash = await hashPassword(input.password);
    const data = {
      email: input.email,
      passwordHash,
      fullName: input.fullName,
      metadata: input.metadata as Prisma.InputJsonObject,
      // Unconfirmed until a mailed link proves the address, on-premises too (where sign-up
      // signs in at once): an OAuth or SSO identity is never linked to an unconfirmed account.
      emailConfirmedAt: null,
    };
    try {
      if (!this.requiresConfirmation) {
        return await this.sessions.start(await this.prisma.user.create({ data }));
      }
      // The confirmation mail is sent inside the transaction: if it cannot be sent, no account
      // is left behind that its owner could never confirm.
      const user = await this.prisma.$transaction(
        async (tx) => {
          const created = await tx.user.create({ data });
          const token = await this.emailTokens.create(created.id, 'confirm', tx);
          const link = `${publicUrl(this.config)}/auth/confirm?token=${encodeURIComponent(token)}`;
          await this.mail.send(confirmationMail(created.email, link));
          return created;
        },
        { timeout: 30_000 },
      );
      return {
        user: toAuthUser(user),
        access_token: null,
        refresh_token: null,
        confirmation_sent: true,
      };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')) {
        throw error;
      }
      // On-premises sign-up signs in at once, so a taken address cannot look like a new one.
      if (!this.requiresConfirmation) throw new BadRequestException(AUTH_MESSAGES.emailTaken);
      // With confirmation by mail it does: the same answer, with a user never stored, and the
      // address's owner is told by mail instead of the one who asked.
      await this.mail.send(accountExistsMail(input.email, `${publicUrl(this.config)}/auth`));
      const now = new Date();
      const shown = {
        id: randomUUID(),
        email: input.email,
        fullName: input.fullName,
        metadata: input.metadata as Prisma.JsonObject,
        emailConfirmedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      return {
        user: toAuthUser(shown),
        access_token: null,
        refresh_token: null,
        confirmation_sent: true,
      };
    }
  }

  async signIn(email: string, password: string): Promise<AuthSession> {
    const user = await this.prisma.user.findUnique({ where: { email } });
    const ok = user?.passwordHash
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDecoy(password);
    if (!user || !ok) throw new UnauthorizedException(AUTH_MESSAGES.invalidCredentials);
    if (await this.sso.enforcedFor(user.email)) {
      throw new ForbiddenException(AUTH_MESSAGES.ssoRequired);
    }
    if (this.requiresConfirmation && !user.emailConfirmedAt) {
      throw new ForbiddenException(AUTH_MESSAGES.emailNotConfirmed);
    }
    return this.sessions.start(user);
  }

  async currentUser(userId: string): Promise<AuthUser> {
    return toAuthUser(await this.user(userId));
  }

  /**
   * Changes the password when the current one is given (a stolen access token alone cannot take
   * over the account), ends every session of the user and its reset links, and starts a fresh
   * session. An account without a password (OAuth only) gets one through a mailed reset link.
   */
  async updatePassword(userId: string, current: string, password: string): Promise<AuthSession> {
    const existing = await this.user(userId);
    if (!existing.passwordHash) throw new ForbiddenException(AUTH_MESSAGES.noPasswordYet);
    if (!(await verifyPassword(current, existing.passwordHash))) {
      throw new ForbiddenException(AUTH_MESSAGES.currentPasswordWrong);
    }
    const user = await this.prisma.user.update({
      where: { id: userId },
      data: { passwordHash: await hashPassword(password) },
    });
    await this.endEverything(userId);
    return this.sessions.start(user);
  }

  /** Mails a reset link when the account exists; answers the same either way. */
  async requestReset(email: string): Promise<void> {
    if (!this.resetAvailable) throw new NotImplementedException(AUTH_MESSAGES.resetOnPrem);
    const user = await this.prisma.user.findUnique({ where: { email } });
    if (!user) return;
    const token = await this.emailTokens.create(user.id, 'reset');
    const link = `${publicUrl(this.config)}/reset-password?token=${encodeURIComponent(token)}`;
    await this.mail.send(resetMail(user.email, link));
  }

  /** Completes a reset from the mailed link: the password is already validated by the caller. */
  async resetPassword(token: string, password: string): Promise<AuthSession> {
    const passwordHash = await hashPassword(password);
    const userId = await this.emailTokens.consume(token, 'reset');
    if (!userId) throw new BadRequestException(AUTH_MESSAGES.invalidLink);
    const existing = await this.user(userId);
    // Receiving the mail proves the address, so a reset also confirms it.
    const user = await this.prisma.user.update({
      where: { id: userId },
      data: { passwordHash, emailConfirmedAt: existing.emailConfirmedAt ?? new Date() },
    });
    await this.endEverything(userId);
    return this.sessions.start(user);
  }

  /** After a password change: no session and no other mailed reset link still works. */
  private async endEverything(userId: string): Promise<void> {
    await this.sessions.endAllForUser(userId);
    await this.emailTokens.revokeAll(userId, 'reset');
  }

  /** Confirms the address from the mailed link; returns the one-time sign-in code. */
  async confirmEmail(token: string): Promise<string> {
    const userId = await this.emailTokens.consume(token, 'confirm');
    if (!userId) throw new BadRequestException(AUTH_MESSAGES.invalidLink);
    await this.prisma.user.update({
      where: { id: userId },
      data: { emailConfirmedAt: new Date() },
    });
    return this.handoff.issue(userId);
  }

  async exchangeCode(code: string): Promise<AuthSession> {
    const userId = await this.handoff.redeem(code);
    if (!userId) throw new BadRequestException(AUTH_MESSAGES.invalidCode);
    return this.sessions.start(await this.user(userId));
  }

  private get requiresConfirmation(): boolean {
    return this.config.DEPLOYMENT_MODE === 'cloud';
  }

  private get resetAvailable(): boolean {
    return this.config.DEPLOYMENT_MODE === 'cloud' || this.mail.configured;
  }

  private async user(userId: string): Promise<User> {
    const user = await this.prisma.user.findUnique({ where: { id: userId } });
    // A valid token for a deleted account: 401 makes the web refresh, fail and sign out.
    if (!user) throw new UnauthorizedException(`User ${userId} no longer exists`);
    return user;
  }
}
