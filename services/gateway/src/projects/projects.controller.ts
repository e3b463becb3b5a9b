import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  UseGuards,
} from '@nestjs/common';
import {
  success,
  type CreatedProjectData,
  type DeletedProjectData,
  type ProjectData,
  type ProjectMember,
  type ProjectsData,
  type RegeneratedKeyData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import { CurrentUser, JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { ProjectAccessService } from './project-access.service.js';
import { ProjectDeletionService } from './project-deletion.service.js';
import { createProjectInput, updateProjectInput } from './project-input.js';
import { ProjectsService } from './projects.service.js';

type Json = Record<string, unknown> | undefined;

/** `/api/projects` calls of spec §7, plus membership. Envelope `{status, type, error, data}`. */
@Controller('api/projects')
@UseGuards(JwtAuthGuard)
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly access: ProjectAccessService,
    private readonly deletion: ProjectDeletionService,
  ) {}

  @Get()
  async list(@CurrentUser() user: AuthenticatedUser): Promise<SuccessEnvelope<ProjectsData>> {
    return success({ projects: await this.projects.list(user.userId) });
  }

  @Post()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: Json,
  ): Promise<SuccessEnvelope<CreatedProjectData>> {
    return success({ project: await this.projects.create(user.userId, createProjectInput(body)) });
  }

  @Put(':id')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: Json,
  ): Promise<SuccessEnvelope<ProjectData>> {
    await this.access.require(user.userId, id);
    return success({
      project: await this.projects.update(user.userId, id, updateProjectInput(body)),
    });
  }

  @Delete(':id')
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<DeletedProjectData>> {
    await this.access.requireOwner(user.userId, id);
    return success({ id, background: await this.deletion.delete(id) });
  }

  @Post(':id/regenerate-api-key')
  @HttpCode(200)
  async regenerate(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<RegeneratedKeyData>> {
    return success(await this.projects.regenerateKey(user.userId, id));
  }

  @Get(':id/members')
  async members(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<{ members: ProjectMember[] }>> {
    return success({ members: await this.projects.members(user.userId, id) });
  }

  @Post(':id/members')
  async addMember(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: Json,
  ): Promise<SuccessEnvelope<{ members: ProjectMember[] }>> {
    const email = typeof body?.email === 'string' ? body.email : '';
    const role = body?.role === 'owner' ? 'owner' : 'member';
    return success({ members: await this.projects.addMember(user.userId, id, email, role) });
  }

  @Delete(':id/members/:userId')
  async removeMember(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('userId') memberId: string,
  ): Promise<SuccessEnvelope<{ members: ProjectMember[] }>> {
    return success({ members: await this.projects.removeMember(user.userId, id, memberId) });
  }
}
