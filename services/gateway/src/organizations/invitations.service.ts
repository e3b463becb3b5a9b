import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GoneException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  type AcceptedInvitationData,
  type Invitation,
  type InvitationPreview,
  type Role,
} from '@memtrail/contracts';
import { PrismaClient, type Invitation as InvitationRow } from '@memtrail/db';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { AuditService } from '../audit/audit.service.js';
import { publicUrl } from '../auth/auth.service.js';
import { hashOpaqueToken, newOpaqueToken } from '../auth/opaque-token.js';
import { GatewayConfig } from '../config.js';
import { MailService } from '../mail/mail.service.js';
import { invitationMail } from '../mail/templates.js';
import type { BodyOf } from '../http/input.js';

const DAY_MS = 24 * 3600_000;

function status(row: InvitationRow, now = Date.now()): Invitation['status'] {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now ? 'expired' : 'pending';
}

export function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    project_id: row.projectId,
    status: status(row),
    expires_at: row.expiresAt.toISOString(),
    sent_at: row.sentAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Invitations by email, to an organisation or to one of its projects. The answer never depends
 * on whether the address has an account: everyone gets a mailed link, accepted by a signed-in
 * user with that address (after sign-up or sign-in through the link).
 */
@Injectable()
export class InvitationsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly mail: MailService,
  ) {}

  async list(organizationId: string): Promise<Invitation[]> {
    const rows = await this.prisma.invitation.findMany({
      where: { organizationId },
      orderBy: { createdAt: 'desc' },
      take: 500,
    });
    return rows.map(toInvitation);
  }

  async invite(
    inviter: { userId: string; role: Role },
    organizationId: string,
    { email, role }: BodyOf<'POST /api/orgs/{org}/invitations'>,
    req: Request,
    projectId: string | null = null,
  ): Promise<Invitation> {
    this.access.assertMayGrant(inviter.role, role);
    if (projectId) await this.assertProjectIn(organizationId, projectId);
    const token = newOpaqueToken();
    const row = await this.prisma.$transaction(
      async (tx) => {
        // One live invitation per address and place: a new one replaces the pending one.
        await tx.invitation.updateMany({
          where: { organizationId, projectId, email, acceptedAt: null, revokedAt: null },
          data: { revokedAt: new Date() },
        });
        const created = await tx.invitation.create({
          data: {
            organizationId,
            projectId,
            email,
            role,
            tokenHash: hashOpaqueToken(token),
            invitedById: inviter.userId,
            expiresAt: this.expiry(),
          },
        });
        await this.audit.record(
          {
            action: 'member.invited',
            organizationId,
            projectId,
            details: { invitation_id: created.id, email, role },
          },
          req,
          tx,
        );
        // Sent inside the transaction: an invitation that could not be mailed is not kept.
        await this.send(created, token);
        return created;
      },
      { timeout: 30_000 },
    );
    return toInvitation(row);
  }

  async revoke(organizationId: string, id: string, req: Request): Promise<Invitation> {
    const row = await this.pending(organizationId, id);
    const updated = await this.prisma.$transaction(async (tx) => {
      const result = await tx.invitation.update({
        where: { id: row.id },
        data: { revokedAt: new Date() },
      });
      await this.audit.record(
        {
          action: 'invitation.revoked',
          organizationId,
          projectId: row.projectId,
          details: { invitation_id: id, email: row.email },
        },
        req,
        tx,
      );
      return result;
    });
    return toInvitation(updated);
  }

  /** Mails a fresh link (the old one stops working) and restarts the expiry. */
  async resend(organizationId: string, id: string, req: Request): Promise<Invitation> {
    const row = await this.prisma.invitation.findFirst({ where: { id, organizationId } });
    if (!row) throw new NotFoundException(`Invitation ${id} not found`);
    if (row.acceptedAt || row.revokedAt) {
      throw new ConflictException(`Invitation ${id} is ${status(row)}; invite again instead`);
    }
    const token = newOpaqueToken();
    const updated = await this.prisma.$transaction(
      async (tx) => {
        const result = await tx.invitation.update({
          where: { id },
          data: { tokenHash: hashOpaqueToken(token), expiresAt: this.expiry(), sentAt: new Date() },
        });
        await this.audit.record(
          {
            action: 'invitation.resent',
            organizationId,
            projectId: row.projectId,
            details: { invitation_id: id, email: row.email },
          },
          req,
          tx,
        );
        await this.send(result, token);
        return result;
      },
      { timeout: 30_000 },
    );
    return toInvitation(updated);
  }

  /** What the link shows before accepting; 404 for unknown, used or revoked links. */
  async preview(token: string): Promise<InvitationPreview> {
    const row = await this.live(token);
    const [organization, project] = await Promise.all([
      this.prisma.organization.findUniqueOrThrow({ where: { id: row.organizationId } }),
      row.projectId ? this.prisma.project.findUnique({ where: { id: row.projectId } }) : null,
    ]);
    return {
      organization_name: organization.name,
      project_name: project?.name ?? null,
      role: row.role,
      email: row.email,
      expires_at: row.expiresAt.toISOString(),
    };
  }

  /**
   * Accepts for the signed-in user, whose address must be the invited one: the link proved it
   * (so an unconfirmed address becomes confirmed). An organisation invitation makes them a
   * member (never lowering a role they have); a project invitation sets a project override.
   */
  async accept(userId: string, token: string, req: Request): Promise<AcceptedInvitationData> {
    const row = await this.live(token);
    const user = await this.prisma.user.findUniqueOrThrow({ where: { id: userId } });
    if (user.email !== row.email) {
      throw new ForbiddenException(
        'This invitation was sent to another email address: sign in with that address to accept it',
      );
    }
    await this.prisma.$transaction(async (tx) => {
      const claimed = await tx.invitation.updateMany({
        where: { id: row.id, acceptedAt: null, revokedAt: null },
        data: { acceptedAt: new Date() },
      });
      if (claimed.count === 0) throw new GoneException('This invitation was already used');
      if (!user.emailConfirmedAt) {
        await tx.user.update({ where: { id: userId }, data: { emailConfirmedAt: new Date() } });
      }
      if (row.projectId) {
        await tx.projectMember.upsert({
          where: { projectId_userId: { projectId: row.projectId, userId } },
          create: { projectId: row.projectId, userId, role: row.role },
          update: { role: row.role },
        });
      } else {
        const existing = await tx.organizationMember.findUnique({
          where: { organizationId_userId: { organizationId: row.organizationId, userId } },
        });
        const keep = existing && this.access.isAtLeast(existing.role, row.role);
        if (!keep) {
          await tx.organizationMember.upsert({
            where: { organizationId_userId: { organizationId: row.organizationId, userId } },
            create: {
              organizationId: row.organizationId,
              userId,
              role: row.role,
              source: 'invitation',
            },
            update: { role: row.role },
          });
        }
      }
      await this.audit.record(
        {
          action: 'invitation.accepted',
          organizationId: row.organizationId,
          projectId: row.projectId,
          details: { invitation_id: row.id, email: row.email, role: row.role },
        },
        req,
        tx,
      );
    });
    return { organization_id: row.organizationId, project_id: row.projectId };
  }

  private async live(token: string): Promise<InvitationRow> {
    const row = await this.prisma.invitation.findUnique({
      where: { tokenHash: hashOpaqueToken(token) },
    });
    if (!row || row.acceptedAt || row.revokedAt) {
      throw new NotFoundException('This invitation link is not valid any more');
    }
    if (row.expiresAt.getTime() <= Date.now()) {
      throw new GoneException('This invitation has expired: ask for a new one');
    }
    return row;
  }

  private async pending(organizationId: string, id: string): Promise<InvitationRow> {
    const row = await this.prisma.invitation.findFirst({ where: { id, organizationId } });
    if (!row) throw new NotFoundException(`Invitation ${id} not found`);
    if (row.acceptedAt || row.revokedAt) {
      throw new ConflictException(`Invitation ${id} is already ${status(row)}`);
    }
    return row;
  }

  private async assertProjectIn(organizationId: string, projectId: string): Promise<void> {
    const project = await this.prisma.project.findFirst({
      where: { id: projectId, organizationId },
    });
    if (!project) throw new BadRequestException(`Project ${projectId} is not in this organization`);
  }

  private expiry(): Date {
    return new Date(Date.now() + this.config.INVITATION_TTL_DAYS * DAY_MS);
  }

  private async send(row: InvitationRow, token: string): Promise<void> {
    const [organization, project, inviter] = await Promise.all([
      this.prisma.organization.findUniqueOrThrow({ where: { id: row.organizationId } }),
      row.projectId ? this.prisma.project.findUnique({ where: { id: row.projectId } }) : null,
      row.invitedById ? this.prisma.user.findUnique({ where: { id: row.invitedById } }) : null,
    ]);
    const link = `${publicUrl(this.config)}/invitations/${encodeURIComponent(token)}`;
    await this.mail.send(
      invitationMail(row.email, link, {
        inviter: inviter ? (inviter.fullName ?? inviter.email) : null,
        organization: organization.name,
        project: project?.name ?? null,
        role: row.role,
        days: this.config.INVITATION_TTL_DAYS,
      }),
    );
  }
}
