import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import {
  type RegionConfig,
  type RegionConfigData,
  type TargetRef,
  type TargetsData,
} from '@memtrail/contracts';
import { PrismaClient, SqlPool, type Prisma } from '@memtrail/db';
import type { Request } from 'express';
import { AuditService } from '../audit/audit.service.js';
import { containsPattern, type ListQuery } from './list-query.js';
import { regionsSeen } from './target-regions.js';

/**
 * Targets and their region configuration. Served by the gateway from Postgres rather than the
 * query service: they are small metadata reads that need the same access check as the writes,
 * and keeping them next to the writes avoids a hop for data the gateway already owns. Callers
 * have passed AccessGuard for the project.
 */
@Injectable()
export class TargetsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    private readonly audit: AuditService,
  ) {}

  /** Favourites first, then by name; the whole list unless a page is asked for. */
  async list(projectId: string, userId: string | null, query: ListQuery): Promise<TargetsData> {
    const { rows } = await this.sql.query<{
      name: string;
      regionConfig: RegionConfig;
      favourite: boolean;
      total: string;
    }>(
      `SELECT t.name, t.region_config AS "regionConfig", f.user_id IS NOT NULL AS favourite,
              count(*) OVER () AS total
       FROM targets t
       LEFT JOIN target_favourites f ON f.target_id = t.id AND f.user_id = $2::uuid
       WHERE t.project_id = $1::uuid
         AND ($3::text IS NULL OR t.name ILIKE $3)
         AND (NOT $4::boolean OR f.user_id IS NOT NULL)
       ORDER BY (f.user_id IS NOT NULL) DESC, t.name
       OFFSET $5 LIMIT $6`,
      [
        projectId,
        userId,
        query.search ? containsPattern(query.search) : null,
        query.favouritesOnly,
        query.page?.offset ?? 0,
        query.page?.limit ?? null,
      ],
    );
    const targets = rows.map((t) => ({
      name: t.name,
      region_config: t.regionConfig,
      favourite: t.favourite,
    }));
    if (!query.page) return { targets };
    const total = rows[0]
      ? Number(rows[0].total)
      : await this.prisma.target.count({
          where: {
            projectId,
            ...(query.search && { name: { contains: query.search, mode: 'insensitive' } }),
            ...(query.favouritesOnly && userId && { favourites: { some: { userId } } }),
          },
        });
    return { targets, pagination: { total, ...query.page } };
  }

  /** The configuration as stored, and every region the target's reports have had. */
  async regionConfig({ projectId, target }: TargetRef): Promise<Required<RegionConfigData>> {
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { id: true, regionConfig: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    return {
      region_config: row.regionConfig as RegionConfig,
      regions: await regionsSeen(this.sql, row.id),
    };
  }

  /** Replaces the whole document (checked by the operation's schema and its rule). */
  async setRegionConfig(
    { projectId, target }: TargetRef,
    config: RegionConfig,
    req: Request,
  ): Promise<RegionConfig> {
    await this.prisma.$transaction(async (tx) => {
      const updated = await tx.target.updateMany({
        where: { projectId, name: target },
        data: { regionConfig: config as Prisma.InputJsonObject },
      });
      if (updated.count === 0) throw new NotFoundException(`Target ${target} not found`);
      await this.audit.record(
        { action: 'region_config.updated', projectId, details: { target, region_config: config } },
        req,
        tx,
      );
    });
    return config as RegionConfig;
  }

  async setFavourite({ projectId, target }: TargetRef, userId: string, favourite: boolean) {
    const row = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId, name: target } },
      select: { id: true },
    });
    if (!row) throw new NotFoundException(`Target ${target} not found`);
    if (favourite) {
      await this.prisma.targetFavourite.upsert({
        where: { userId_targetId: { userId, targetId: row.id } },
        create: { userId, targetId: row.id },
        update: {},
      });
    } else {
      await this.prisma.targetFavourite.deleteMany({ where: { userId, targetId: row.id } });
    }
  }
}
