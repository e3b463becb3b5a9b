import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import {
  success,
  type RegionConfigData,
  type SuccessEnvelope,
  type TargetRef,
  type TargetsData,
} from '@memtrail/contracts';
import { JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import { ProjectAccessGuard, Target } from './project-access.guard.js';
import { TargetsService } from './targets.service.js';

/** `/api/{project}/targets` and `/api/{project}/{target}/region-config` (spec §7). */
@Controller('api/:project')
@UseGuards(JwtAuthGuard, ProjectAccessGuard)
export class TargetsController {
  constructor(private readonly targets: TargetsService) {}

  @Get('targets')
  async list(@Param('project') project: string): Promise<SuccessEnvelope<TargetsData>> {
    return success({ targets: await this.targets.list(project) });
  }

  @Get(':target/region-config')
  async regionConfig(@Target() target: TargetRef): Promise<SuccessEnvelope<RegionConfigData>> {
    return success({ region_config: await this.targets.regionConfig(target) });
  }

  @Put(':target/region-config')
  async setRegionConfig(
    @Target() target: TargetRef,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<SuccessEnvelope<RegionConfigData>> {
    return success({
      region_config: await this.targets.setRegionConfig(target, body?.region_config),
    });
  }
}
