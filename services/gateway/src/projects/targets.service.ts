import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { validateRegionConfig, type RegionConfig, type Target } from '@memtrail/contracts';
import { PrismaClient, type Prisma } from '@memtrail/db';
import { ProjectAccessService } from './project-access.service.js';

/**
 * Targets and their region configuration. Served by the gateway from Postgres rather than the
 * query service: they are small metadata reads that need the same membership check as the
 * writes, and keeping them next to the writes avoids a hop for data the gateway already owns.
 */
@Injectable()
export class TargetsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly access: ProjectAccessService,
  ) {}

  async list(userId: string, projectId: string): Promise<Target[]> {
    await this.access.require(userId, projectId);
    const rows = await this.prisma.target.findMany({
      where: { projectId },
      orderBy: { name: 'asc' },
      select: { name: true, regionConfig: true },
    });
    return rows.map((t) => ({ name: t.name, region_config: t.regionConfig as RegionConfig }));
  }

  async regionConfig(userId: string, projectId: string, target: string): Promise<RegionConfig> {
    await this.access.require(userId, projectId);
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { regionConfig: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return row.regionConfig as RegionConfig;
  }

  /** Replaces the whole document after validating it against the schema in contracts. */
  async setRegionConfig(
    userId: string,
    projectId: string,
    target: string,
    config: unknown,
  ): Promise<RegionConfig> {
    await this.access.require(userId, projectId);
    const problem = validateRegionConfig(config);
    if (problem) throw new BadRequestException(problem);
    const updated = await this.prisma.target.updateMany({
      where: { projectId, name: target },
      data: { regionConfig: config as Prisma.InputJsonObject },
    });
    if (updated.count === 0) throw new NotFoundException(`Target ${target} not found`);
    return config as RegionConfig;
  }
}
