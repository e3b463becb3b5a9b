import { Body, Controller, Get, Param, Put, Req, UseGuards } from '@nestjs/common';
import {
  success,
  type PublicAccessData,
  type PublicProjectData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import { AccessGuard, Requires } from '../access/access.guard.js';
import { bodyOf, type BodyOf } from '../http/input.js';
import { PublicAccessService } from './public-access.service.js';
import { PublicProjects } from './public-projects.js';

/** The project setting of contracts' public-access.ts: members read it, admins change it. */
@Controller('api/projects/:id/public-access')
@UseGuards(AccessGuard)
export class PublicAccessController {
  constructor(private readonly settings: PublicAccessService) {}

  @Get()
  @Requires('project:read')
  async get(@Param('id') id: string): Promise<SuccessEnvelope<PublicAccessData>> {
    return success(await this.settings.get(id));
  }

  @Put()
  @Requires('project:rename')
  async update(
    @Param('id') id: string,
    @Body(bodyOf('PUT /api/projects/{id}/public-access'))
    change: BodyOf<'PUT /api/projects/{id}/public-access'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<PublicAccessData>> {
    return success(await this.settings.update(id, change, req));
  }
}

/** What signed-out readers learn of a public project (404 for any other). */
@Controller('api/public/projects')
export class PublicProjectController {
  constructor(private readonly publicProjects: PublicProjects) {}

  @Get(':id')
  async get(@Param('id') id: string): Promise<SuccessEnvelope<PublicProjectData>> {
    return success({ project: await this.publicProjects.get(id) });
  }
}
