import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import {
  success,
  type RegionConfigData,
  type SuccessEnvelope,
  type TargetsData,
} from '@memtrail/contracts';
import { CurrentUser, JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { TargetsService } from './targets.service.js';

/** `/api/{project}/targets` and `/api/{project}/{target}/region-config` (spec §7). */
@Controller('api/:project')
@UseGuards(JwtAuthGuard)
export class TargetsController {
  constructor(private readonly targets: TargetsService) {}

  @Get('targets')
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
  ): Promise<SuccessEnvelope<TargetsData>> {
    return success({ targets: await this.targets.list(user.userId, project) });
  }

  @Get(':target/region-config')
  async regionConfig(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
  ): Promise<SuccessEnvelope<RegionConfigData>> {
    return success({
      region_config: await this.targets.regionConfig(user.userId, project, target),
    });
  }

  @Put(':target/region-config')
  async setRegionConfig(
    @CurrentUser() user: AuthenticatedUser,
    @Param('project') project: string,
    @Param('target') target: string,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<SuccessEnvelope<RegionConfigData>> {
    const config = await this.targets.setRegionConfig(
      user.userId,
      project,
      target,
      body?.region_config,
    );
    return success({ region_config: config });
  }
}
