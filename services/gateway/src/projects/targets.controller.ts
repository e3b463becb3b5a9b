import { Body, Controller, Delete, Get, Param, Put, Query, Req, UseGuards } from '@nestjs/common';
import {
  success,
  validateRegionConfig,
  type RegionConfigData,
  type SuccessEnvelope,
  type TargetRef,
  type TargetsData,
} from '@memtrail/contracts';
import type { Request } from 'express';
import { AccessGuard, Requires, Target } from '../access/access.guard.js';
import { PublicReadable } from '../public-access/public-readable.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { listQuery } from './list-query.js';
import { bodyOf, queryOf, type BodyOf, type QueryOf } from '../http/input.js';
import { TargetsService } from './targets.service.js';

/** The region config page's own rule, with its sentences naming the region and field. */
const regionConfigRule = (body: unknown) =>
  validateRegionConfig((body as { region_config?: unknown } | undefined)?.region_config);

/** `/api/{project}/targets` and `/api/{project}/{target}/region-config` (spec §7). */
@Controller('api/:project')
@UseGuards(AccessGuard)
export class TargetsController {
  constructor(private readonly targets: TargetsService) {}

  @Get('targets')
  @Requires('project:read')
  @PublicReadable()
  async list(
    @Param('project') project: string,
    @Query(queryOf('GET /api/{project}/targets')) query: QueryOf<'GET /api/{project}/targets'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<TargetsData>> {
    // A read key has no favourites: it sees the plain list.
    const userId = (req.user as AuthenticatedUser | undefined)?.userId ?? null;
    return success(await this.targets.list(project, userId, listQuery(query)));
  }

  @Get(':target/region-config')
  @Requires('project:read')
  async regionConfig(@Target() target: TargetRef): Promise<SuccessEnvelope<RegionConfigData>> {
    return success(await this.targets.regionConfig(target));
  }

  @Put(':target/region-config')
  @Requires('project:configure')
  async setRegionConfig(
    @Target() target: TargetRef,
    @Body(bodyOf('PUT /api/{project}/{target}/region-config', regionConfigRule))
    body: BodyOf<'PUT /api/{project}/{target}/region-config'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<RegionConfigData>> {
    return success({
      region_config: await this.targets.setRegionConfig(target, body.region_config, req),
    });
  }

  @Put(':target/favourite')
  @Requires('project:read')
  async favourite(
    @Target() target: TargetRef,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<SuccessEnvelope<{ favourite: boolean }>> {
    await this.targets.setFavourite(target, user.userId, true);
    return success({ favourite: true });
  }

  @Delete(':target/favourite')
  @Requires('project:read')
  async unfavourite(
    @Target() target: TargetRef,
    @CurrentUser() user: AuthenticatedUser,
  ): Promise<SuccessEnvelope<{ favourite: boolean }>> {
    await this.targets.setFavourite(target, user.userId, false);
    return success({ favourite: false });
  }
}
