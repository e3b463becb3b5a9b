import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { PrismaClient, type ProjectRole } from '@memtrail/db';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Tenant isolation in one place: a project exists for a user only through a membership row.
 * Non-members get the same 404 as for a project that does not exist, so ids cannot be probed.
 */
@Injectable()
export class ProjectAccessService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async require(userId: string, projectId: string): Promise<ProjectRole> {
    const member = UUID.test(projectId)
      ? await this.prisma.projectMember.findUnique({
          where: { projectId_userId: { projectId, userId } },
          select: { role: true },
        })
      : null;
    if (!member) throw new NotFoundException(`Project ${projectId} not found`);
    return member.role;
  }

  /** Destructive actions (delete, key regeneration, membership changes) are the owners'. */
  async requireOwner(userId: string, projectId: string): Promise<void> {
    if ((await this.require(userId, projectId)) !== 'owner') {
      throw new ForbiddenException(`Only an owner of project ${projectId} can do this`);
    }
  }
}
