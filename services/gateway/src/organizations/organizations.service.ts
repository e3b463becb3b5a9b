import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { Organization, OrganizationMember, Role } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import type { Request } from 'express';
import { AccessService } from '../access/access.service.js';
import { can } from '../access/permissions.js';
import { AuditService } from '../audit/audit.service.js';
import type { BodyOf } from '../http/input.js';

const organizationSelect = (userId: string) =>
  ({
    id: true,
    name: true,
    personalOwnerId: true,
    auditRetentionDays: true,
    createdAt: true,
    members: { where: { userId }, select: { role: true } },
    sso: { select: { enforced: true, domains: true } },
    _count: { select: { projects: { where: { deletedAt: null } } } },
  }) as const;

type OrganizationRow = {
  id: string;
  name: string;
  personalOwnerId: string | null;
  auditRetentionDays: number | null;
  createdAt: Date;
  members: Array<{ role: Role }>;
  sso: { enforced: boolean; domains: string[] } | null;
  _count: { projects: number };
};

function toOrganization(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    personal: row.personalOwnerId !== null,
    role: row.members[0]!.role,
    audit_retention_days: row.auditRetentionDays,
    sso: row.sso,
    project_count: row._count.projects,
    created_at: row.createdAt.toISOString(),
  };
}

/** Organisations and their members. Callers have passed AccessGuard for the organisation. */
@Injectable()
export class OrganizationsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly access: AccessService,
    private readonly audit: AuditService,
  ) {}

  async list(userId: string): Promise<Organization[]> {
    const rows = await this.prisma.organization.findMany({
      where: { members: { some: { userId } } },
      select: organizationSelect(userId),
      orderBy: [{ personalOwnerId: { sort: 'asc', nulls: 'last' } }, { name: 'asc' }],
    });
    return rows.map(toOrganization);
  }

  async get(userId: string, organizationId: string): Promise<Organization> {
    return toOrganization(
      await this.prisma.organization.findUniqueOrThrow({
        where: { id: organizationId },
        select: organizationSelect(userId),
      }),
    );
  }

  async create(userId: string, name: string, req: Request): Promise<Organization> {
    const id = await this.prisma.$transaction(async (tx) => {
      const row = await tx.organization.create({
        data: { name, members: { create: { userId, role: 'owner', source: 'created' } } },
        select: { id: true },
      });
      await this.audit.record(
        { action: 'organization.created', organizationId: row.id, details: { name } },
        req,
        tx,
      );
      return row.id;
    });
    return this.get(userId, id);
  }

  async update(
    userId: string,
    organizationId: string,
    body: BodyOf<'PUT /api/orgs/{org}'>,
    req: Request,
  ) {
    const data: { name?: string; auditRetentionDays?: number | null } = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.audit_retention_days !== undefined && {
        auditRetentionDays: body.audit_retention_days,
      }),
    };
    await this.prisma.$transaction(async (tx) => {
      await tx.organization.update({ where: { id: organizationId }, data });
      await this.audit.record(
        { action: 'organization.updated', organizationId, details: { ...data } },
        req,
        tx,
      );
    });
    return this.get(userId, organizationId);
  }

  /** Only an organisation without projects can go (its projects' data is not collateral). */
  async remove(organizationId: string): Promise<void> {
    // Projects being deleted count too: their rows still reference the organisation.
    const projects = await this.prisma.project.count({ where: { organizationId } });
    if (projects > 0) {
      throw new ConflictException(
        `The organization still has ${projects} project(s): delete them first`,
      );
    }
    await this.prisma.organization.delete({ where: { id: organizationId } });
  }

  async members(organizationId: string): Promise<OrganizationMember[]> {
    const rows = await this.prisma.organizationMember.findMany({
      where: { organizationId },
      include: { user: { select: { email: true, fullName: true } } },
      orderBy: [{ createdAt: 'asc' }],
    });
    return rows.map((m) => ({
      user_id: m.userId,
      email: m.user.email,
      full_name: m.user.fullName,
      role: m.role,
      source: m.source,
      created_at: m.createdAt.toISOString(),
    }));
  }

  async setRole(
    granter: { userId: string; role: Role },
    organizationId: string,
    memberId: string,
    role: Role,
    req: Request,
  ): Promise<OrganizationMember[]> {
    await this.prisma.$transaction(async (tx) => {
      const current = await tx.organizationMember.findUnique({
        where: { organizationId_userId: { organizationId, userId: memberId } },
      });
      if (!current) throw new BadRequestException(`User ${memberId} is not a member`);
      // Changing an owner, or making one, takes an owner.
      this.access.assertMayGrant(granter.role, current.role);
      this.access.assertMayGrant(granter.role, role);
      await tx.organizationMember.update({
        where: { organizationId_userId: { organizationId, userId: memberId } },
        data: { role, source: current.source === 'sso' ? 'sso' : 'manual' },
      });
      await this.assertOwnerLeft(tx, organizationId);
      await this.audit.record(
        {
          action: 'member.role_changed',
          organizationId,
          details: { user_id: memberId, from: current.role, to: role },
        },
        req,
        tx,
      );
    });
    return this.members(organizationId);
  }

  async removeMember(
    remover: { userId: string; role: Role },
    organizationId: string,
    memberId: string,
    req: Request,
  ): Promise<OrganizationMember[]> {
    await this.prisma.$transaction(async (tx) => {
      const current = await tx.organizationMember.findUnique({
        where: { organizationId_userId: { organizationId, userId: memberId } },
      });
      if (!current) return;
      // Anyone may leave; removing someone else takes members:manage and their role or higher.
      if (memberId !== remover.userId) {
        if (!can(remover.role, 'members:manage')) {
          throw new ForbiddenException('Only owners and admins can remove other members');
        }
        this.access.assertMayGrant(remover.role, current.role);
      }
      await tx.organizationMember.delete({
        where: { organizationId_userId: { organizationId, userId: memberId } },
      });
      // Their project overrides in this organisation go with them.
      await tx.projectMember.deleteMany({
        where: { userId: memberId, project: { organizationId } },
      });
      await this.assertOwnerLeft(tx, organizationId);
      await this.audit.record(
        {
          action: memberId === remover.userId ? 'member.left' : 'member.removed',
          organizationId,
          details: { user_id: memberId, role: current.role },
        },
        req,
        tx,
      );
    });
    return this.members(organizationId);
  }

  private async assertOwnerLeft(
    tx: Parameters<Parameters<PrismaClient['$transaction']>[0]>[0],
    organizationId: string,
  ): Promise<void> {
    const owners = await tx.organizationMember.count({ where: { organizationId, role: 'owner' } });
    // Rolled back: an organisation without an owner could never be managed again.
    if (owners === 0) throw new BadRequestException('An organization must keep at least one owner');
  }
}
