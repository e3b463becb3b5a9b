import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  validateRegionConfig,
  type RegionConfig,
  type Target,
  type TargetRef,
} from '@memtrail/contracts';
import { PrismaClient, type Prisma } from '@memtrail/db';

/**
 * Targets and their region configuration. Served by the gateway from Postgres rather than the
 * query service: they are small metadata reads that need the same membership check as the
 * writes, and keeping them next to the writes avoids a hop for data the gateway already owns.
 * Callers have checked that the user is a member of the project (ProjectAccessGuard).
 */
@Injectable()
export class TargetsService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async list(projectId: string): Promise<Target[]> {
    const rows = await this.prisma.target.findMany({
      where: { projectId },
      orderBy: { name: 'asc' },
      select: { name: true, regionConfig: true },
    });
    return rows.map((t) => ({ name: t.name, region_config: t.regionConfig as RegionConfig }));
  }

  async regionConfig({ projectId, target }: TargetRef): Promise<RegionConfig> {
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { regionConfig: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return row.regionConfig as RegionConfig;
  }

  /** Replaces the whole document after validating it against the schema in contracts. */
  async setRegionConfig({ projectId, target }: TargetRef, config: unknown): Promise<RegionConfig> {
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
