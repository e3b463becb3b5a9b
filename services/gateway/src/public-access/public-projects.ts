import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { PublicProject } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { isUuid } from '../access/access.service.js';

/** Which projects anyone may read. */
@Injectable()
export class PublicProjects {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async isPublic(projectId: string): Promise<boolean> {
    if (!isUuid(projectId)) return false;
    const row = await this.prisma.project.findUnique({
      where: { id: projectId, deletedAt: null },
      select: { public: true },
    });
    return row?.public === true;
  }

  /** The project as signed-out readers see it; 404 unless it is public. */
  async get(projectId: string): Promise<PublicProject> {
    const row = isUuid(projectId)
      ? await this.prisma.project.findFirst({
          where: { id: projectId, public: true, deletedAt: null },
          select: { id: true, name: true, description: true, githubRepository: true },
        })
      : null;
    if (!row) throw new NotFoundException(`Project ${projectId} not found`);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      repository: row.githubRepository,
    };
  }
}
