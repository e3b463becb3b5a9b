import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import {
  normalizeEmail,
  validateEmail,
  type Project,
  type ProjectMember,
  type ProjectWithApiKey,
  type RegeneratedKeyData,
} from '@memtrail/contracts';
import { PrismaClient, type Project as ProjectRow, type ProjectRole } from '@memtrail/db';
import { maskApiKey } from '../api-keys/api-key-format.js';
import { ApiKeyService } from '../api-keys/api-key.service.js';
import { ProjectAccessService } from './project-access.service.js';
import type { ProjectFields } from './project-input.js';

type RowWithKeys = ProjectRow & { apiKeys: Array<{ publicId: string }> };

function toProject(row: RowWithKeys, role: ProjectRole): Project {
  const key = row.apiKeys[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    role,
    api_key_masked: key ? maskApiKey(key.publicId) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const liveKey = {
  apiKeys: {
    where: { revokedAt: null },
    orderBy: { createdAt: 'desc' as const },
    take: 1,
    select: { publicId: true },
  },
};

/** Projects the caller is a member of, and the owner-only actions on them. */
@Injectable()
export class ProjectsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly access: ProjectAccessService,
    private readonly keys: ApiKeyService,
  ) {}

  async list(userId: string): Promise<Project[]> {
    const memberships = await this.prisma.projectMember.findMany({
      where: { userId },
      include: { project: { include: liveKey } },
      orderBy: { project: { createdAt: 'asc' } },
    });
    return memberships.map((m) => toProject(m.project, m.role));
  }

  /** Project, owner membership and first API key in one transaction; the key is shown once. */
  async create(
    userId: string,
    fields: { name: string; description: string | null },
  ): Promise<ProjectWithApiKey> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.project.create({
        data: { ...fields, ownerId: userId, members: { create: { userId, role: 'owner' } } },
      });
      const key = await this.keys.issue(row.id, tx);
      return {
        ...toProject({ ...row, apiKeys: [] }, 'owner'),
        api_key_masked: key.masked,
        api_key: key.key,
      };
    });
  }

  async update(userId: string, projectId: string, fields: ProjectFields): Promise<Project> {
    const role = await this.access.require(userId, projectId);
    const row = await this.prisma.project.update({
      where: { id: projectId },
      data: fields,
      include: liveKey,
    });
    return toProject(row, role);
  }

  async regenerateKey(userId: string, projectId: string): Promise<RegeneratedKeyData> {
    await this.access.requireOwner(userId, projectId);
    const key = await this.keys.regenerate(projectId);
    return { api_key: key.key, api_key_masked: key.masked };
  }

  async members(userId: string, projectId: string): Promise<ProjectMember[]> {
    await this.access.require(userId, projectId);
    const rows = await this.prisma.projectMember.findMany({
      where: { projectId },
      include: { user: { select: { email: true, fullName: true } } },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((m) => ({
      user_id: m.userId,
      email: m.user.email,
      full_name: m.user.fullName,
      role: m.role,
    }));
  }

  /** Invites an existing user by email (sign-up invitations are not supported yet). */
  async addMember(
    userId: string,
    projectId: string,
    email: string,
    role: 'owner' | 'member',
  ): Promise<ProjectMember[]> {
    await this.access.requireOwner(userId, projectId);
    const problem = validateEmail(email);
    if (problem) throw new BadRequestException(problem);
    const user = await this.prisma.user.findUnique({ where: { email: normalizeEmail(email) } });
    if (!user)
      throw new BadRequestException(
        `No user with email ${normalizeEmail(email)}; they must sign up first`,
      );
    await this.prisma.projectMember.upsert({
      where: { projectId_userId: { projectId, userId: user.id } },
      create: { projectId, userId: user.id, role },
      update: { role },
    });
    return this.members(userId, projectId);
  }

  async removeMember(
    userId: string,
    projectId: string,
    memberId: string,
  ): Promise<ProjectMember[]> {
    await this.access.requireOwner(userId, projectId);
    await this.prisma.$transaction(async (tx) => {
      await tx.projectMember.deleteMany({ where: { projectId, userId: memberId } });
      const owners = await tx.projectMember.count({ where: { projectId, role: 'owner' } });
      // Rolled back: a project without an owner could never be deleted or re-keyed.
      if (owners === 0) throw new BadRequestException('A project must keep at least one owner');
    });
    return this.members(userId, projectId);
  }
}
