import { Inject, Injectable } from '@nestjs/common';
import type { AuthSession } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import type { Request } from 'express';
import { AuditService } from './audit.service.js';

/** A sign-in is seen in the audit log of each organisation the user belongs to. */
@Injectable()
export class SignInAudit {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly audit: AuditService,
  ) {}

  /** `method`: "password", or "link" for a one-time code (OAuth, SSO, confirmation mail). */
  async record(session: AuthSession, method: 'password' | 'link', req: Request): Promise<void> {
    const memberships = await this.prisma.organizationMember.findMany({
      where: { userId: session.user.id },
      select: { organizationId: true },
    });
    await this.audit.recordInEach(
      memberships.map((m) => m.organizationId),
      {
        action: 'auth.signed_in',
        actor: { type: 'user', id: session.user.id, label: session.user.email },
        details: { method },
      },
      req,
    );
  }
}
