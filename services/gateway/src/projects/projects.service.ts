import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import type {
  Invitation,
  Project,
  ProjectMember,
  ProjectsData,
  ProjectWithApiKey,
  Role,
} from '@memtrail/contracts';
import { PrismaClient, SqlPool } from '@memtrail/db';
import type { Request } from 'express';
import { AccessService, type ProjectAccess } from '../access/access.service.js';
import { AuditService } from '../audit/audit.service.js';
import { maskApiKey } from '../api-keys/api-key-format.js';
import { ApiKeyService } from '../api-keys/api-key.service.js';
import { InvitationsService } from '../organizations/invitations.service.js';
import { personalOrganizationId } from '../organizations/personal-organization.js';
import { containsPattern, type ListQuery } from './list-query.js';
import type { BodyOf } from '../http/input.js';

/** The projects a user reaches ($1), in an organisation ($2), matching $3, favourites ($4). */
const VISIBLE = `
  FROM projects p
  LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.user_id = $1
  LEFT JOIN organization_members om ON om.organization_id = p.organization_id AND om.user_id = $1
  LEFT JOIN project_favourites f ON f.project_id = p.id AND f.user_id = $1
  WHERE (pm.user_id IS NOT NULL OR om.user_id IS NOT NULL) AND p.deleted_at IS NULL
    AND ($2::uuid IS NULL OR p.organization_id = $2::uuid)
    AND ($3::text IS NULL OR p.name ILIKE $3 OR p.description ILIKE $3)
    AND (NOT $4::boolean OR f.user_id IS NOT NULL)`;

const visibleParams = (userId: string, organizationId: string | null, query: ListQuery) => [
  userId,
  organizationId,
  query.search ? containsPattern(query.search) : null,
  query.favouritesOnly,
];

const projectInclude = (userId: string) =>
  ({
    apiKeys: {
      where: { revokedAt: null, scope: 'upload' },
      orderBy: { createdAt: 'desc' },
      take: 1,
      select: { publicId: true },
    },
    members: { where: { userId }, select: { role: true } },
    organization: {
      select: { name: true, members: { where: { userId }, select: { role: true } } },
    },
    favourites: { where: { userId }, select: { userId: true } },
  }) as const;

interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
  apiKeys: Array<{ publicId: string }>;
  members: Array<{ role: Role }>;
  organization: { name: string; members: Array<{ role: Role }> };
  favourites: Array<{ userId: string }>;
}

function toProject(row: ProjectRow): Project {
  const key = row.apiKeys[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organization_id: row.organizationId,
    organization_name: row.organization.name,
    role: (row.members[0]?.role ?? row.organization.members[0]?.role)!,
    favourite: row.favourites.length > 0,
    api_key_masked: key ? maskApiKey(key.publicId) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Projects the caller can reach (by organisation role or project override), and their members. */
@Injectable()
export class ProjectsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    private readonly access: AccessService,
    private readonly keys: ApiKeyService,
    private readonly audit: AuditService,
    private readonly invitations: InvitationsService,
  ) {}

  /**
   * Favourites first, then oldest first (the order the list always had). Without a page the
   * whole list is returned, as the spec's call expects.
   */
  async list(
    userId: string,
    organizationId: string | null,
    query: ListQuery,
  ): Promise<ProjectsData> {
    const { rows } = await this.sql.query<{ id: string; total: string }>(
      `SELECT p.id::text, count(*) OVER () AS total ${VISIBLE}
       ORDER BY (f.user_id IS NOT NULL) DESC, p.created_at, p.id
       OFFSET $5 LIMIT $6`,
      [
        ...visibleParams(userId, organizationId, query),
        query.page?.offset ?? 0,
        query.page?.limit ?? null,
      ],
    );
    const ids = rows.map((r) => r.id);
    const details = await this.prisma.project.findMany({
      where: { id: { in: ids } },
      include: projectInclude(userId),
    });
    const byId = new Map(details.map((row) => [row.id, toProject(row)]));
    const projects = ids.map((id) => byId.get(id)!);
    if (!query.page) return { projects };
    const total = rows[0] ? Number(rows[0].total) : await this.count(userId, organizationId, query);
    return { projects, pagination: { total, ...query.page } };
  }

  async get(userId: string, projectId: string): Promise<Project> {
    return toProject(
      await this.prisma.project.findUniqueOrThrow({
        where: { id: projectId },
        include: projectInclude(userId),
      }),
    );
  }

  /**
   * Project and first API key in one transaction; the key is shown once. Without an
   * organisation the project goes to the caller's personal one.
   */
  async create(
    userId: string,
    organizationId: string | null,
    fields: { name: string; description: string | null },
    req: Request,
  ): Promise<ProjectWithApiKey> {
    const created = await this.prisma.$transaction(async (tx) => {
      const orgId = organizationId ?? (await personalOrganizationId(tx, userId));
      const row = await tx.project.create({
        data: { ...fields, ownerId: userId, organizationId: orgId },
      });
      const key = await this.keys.issue(row.id, tx, { createdById: userId });
      await this.audit.record(
        { action: 'project.created', organizationId: orgId, projectId: row.id, details: fields },
        req,
        tx,
      );
      return { id: row.id, key };
    });
    const project = await this.get(userId, created.id);
    return { ...project, api_key_masked: created.key.masked, api_key: created.key.key };
  }

  async update(
    userId: string,
    projectId: string,
    fields: BodyOf<'PUT /api/projects/{id}'>,
    req: Request,
  ): Promise<Project> {
    await this.prisma.$transaction(async (tx) => {
      const before = await tx.project.findUniqueOrThrow({ where: { id: projectId } });
      await tx.project.update({ where: { id: projectId }, data: fields });
      await this.audit.record(
        {
          action: 'project.updated',
          projectId,
          details: {
            ...(fields.name !== undefined && { name: { from: before.name, to: fields.name } }),
            ...(fields.description !== undefined && { description: fields.description }),
          },
        },
        req,
        tx,
      );
    });
    return this.get(userId, projectId);
  }

  /** Everyone with access: organisation members (inherited role) and project overrides. */
  async members(projectId: string): Promise<ProjectMember[]> {
    const project = await this.prisma.project.findUniqueOrThrow({
      where: { id: projectId },
      select: {
        members: { include: { user: { select: { email: true, fullName: true } } } },
        organization: {
          select: {
            members: {
              include: { user: { select: { email: true, fullName: true } } },
              orderBy: { createdAt: 'asc' },
            },
          },
        },
      },
    });
    const overrides = new Map(project.members.map((m) => [m.userId, m]));
    const fromOrganization = project.organization.members.map((m) => {
      const override = overrides.get(m.userId);
      return {
        user_id: m.userId,
        email: m.user.email,
        full_name: m.user.fullName,
        role: override?.role ?? m.role,
        source: override ? ('project' as const) : ('organization' as const),
        organization_role: m.role,
      };
    });
    const inOrganization = new Set(project.organization.members.map((m) => m.userId));
    const outside = project.members
      .filter((m) => !inOrganization.has(m.userId))
      .map((m) => ({
        user_id: m.userId,
        email: m.user.email,
        full_name: m.user.fullName,
        role: m.role,
        source: 'project' as const,
        organization_role: null,
      }));
    return [...fromOrganization, ...outside];
  }

  /**
   * By email: a member of the organisation gets the project override at once; anyone else gets
   * an invitation to the project, mailed whether or not the address has an account.
   */
  async addMember(
    caller: ProjectAccess & { userId: string },
    { email, role }: BodyOf<'POST /api/projects/{id}/members'>,
    req: Request,
  ): Promise<{ members: ProjectMember[]; invitation: Invitation | null }> {
    this.access.assertMayGrant(caller.role, role);
    const member = await this.prisma.organizationMember.findFirst({
      where: { organizationId: caller.organizationId, user: { email } },
      select: { userId: true },
    });
    if (!member) {
      const invitation = await this.invitations.invite(
        caller,
        caller.organizationId,
        { email, role },
        req,
        caller.projectId,
      );
      return { members: await this.members(caller.projectId), invitation };
    }
    await this.setOverride(caller, member.userId, role, req);
    return { members: await this.members(caller.projectId), invitation: null };
  }

  /** Removes a project override: the user falls back to their organisation role, if any. */
  async removeMember(
    caller: ProjectAccess & { userId: string },
    memberId: string,
    req: Request,
  ): Promise<ProjectMember[]> {
    const override = await this.prisma.projectMember.findUnique({
      where: { projectId_userId: { projectId: caller.projectId, userId: memberId } },
    });
    if (!override) {
      throw new BadRequestException(
        `User ${memberId} has no role of their own on this project; change their organization role instead`,
      );
    }
    this.access.assertMayGrant(caller.role, override.role);
    await this.prisma.$transaction(async (tx) => {
      await tx.projectMember.delete({
        where: { projectId_userId: { projectId: caller.projectId, userId: memberId } },
      });
      await this.audit.record(
        {
          action: 'project_role.removed',
          projectId: caller.projectId,
          details: { user_id: memberId, role: override.role },
        },
        req,
        tx,
      );
    });
    return this.members(caller.projectId);
  }

  async setFavourite(userId: string, projectId: string, favourite: boolean): Promise<void> {
    if (favourite) {
      await this.prisma.projectFavourite.upsert({
        where: { userId_projectId: { userId, projectId } },
        create: { userId, projectId },
        update: {},
      });
    } else {
      await this.prisma.projectFavourite.deleteMany({ where: { userId, projectId } });
    }
  }

  private async setOverride(
    caller: ProjectAccess & { userId: string },
    userId: string,
    role: Role,
    req: Request,
  ): Promise<void> {
    const { projectId } = caller;
    await this.prisma.$transaction(async (tx) => {
      const current = await tx.projectMember.findUnique({
        where: { projectId_userId: { projectId, userId } },
      });
      if (current) this.access.assertMayGrant(caller.role, current.role);
      await tx.projectMember.upsert({
        where: { projectId_userId: { projectId, userId } },
        create: { projectId, userId, role },
        update: { role },
      });
      await this.audit.record(
        {
          action: 'project_role.set',
          projectId,
          details: { user_id: userId, from: current?.role ?? null, to: role },
        },
        req,
        tx,
      );
    });
  }

  private async count(userId: string, organizationId: string | null, query: ListQuery) {
    // The page was past the end: count the matches alone.
    const { rows } = await this.sql.query<{ total: string }>(
      `SELECT count(*) AS total ${VISIBLE}`,
      visibleParams(userId, organizationId, query),
    );
    return Number(rows[0]!.total);
  }
}
