import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  ORGANIZATION_HEADER,
  success,
  type CreatedProjectData,
  type DeletedProjectData,
  type Invitation,
  type ProjectData,
  type ProjectMember,
  type ProjectsData,
  type RegeneratedKeyData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import {
  AccessGuard,
  CurrentProjectAccess,
  Requires,
  RequiresAccount,
} from '../access/access.guard.js';
import { AccessService, isUuid, type ProjectAccess } from '../access/access.service.js';
import { AuditService } from '../audit/audit.service.js';
import { KeyManagementService } from '../api-keys/key-management.service.js';
import { bodyOf, queryOf, type BodyOf, type QueryOf } from '../http/input.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { listQuery } from './list-query.js';
import { ProjectDeletionService } from './project-deletion.service.js';
import { ProjectsService } from './projects.service.js';

type Json = Record<string, unknown> | undefined;

/**
 * The organisation a call names: the X-Memtrail-Organization header, or on create the body's
 * `organization_id` (the web app's choice in its header); null when none is named.
 */
function chosenOrganization(req: Request): string | null {
  const header = req.headers[ORGANIZATION_HEADER];
  if (typeof header === 'string' && header) return header;
  const body = req.body as Json;
  return req.method === 'POST' && typeof body?.organization_id === 'string' && body.organization_id
    ? body.organization_id
    : null;
}

/**
 * `/api/projects` calls of spec §7 (unchanged in shape), plus members and favourites. Every
 * route states what it needs from the permission table; AccessGuard enforces it.
 */
@Controller('api/projects')
@UseGuards(AccessGuard)
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly access: AccessService,
    private readonly deletion: ProjectDeletionService,
    private readonly keys: KeyManagementService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @RequiresAccount()
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Query(queryOf('GET /api/projects')) query: QueryOf<'GET /api/projects'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<ProjectsData>> {
    const organizationId = chosenOrganization(req);
    if (organizationId && !isUuid(organizationId)) {
      return success({ projects: [] });
    }
    return success(await this.projects.list(user.userId, organizationId, listQuery(query)));
  }

  @Post()
  @RequiresAccount()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(bodyOf('POST /api/projects')) { name, description }: BodyOf<'POST /api/projects'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<CreatedProjectData>> {
    const organizationId = chosenOrganization(req);
    if (organizationId) {
      await this.access.requireOrganization(user.userId, organizationId, 'project:create');
    }
    return success({
      project: await this.projects.create(user.userId, organizationId, { name, description }, req),
    });
  }

  @Put(':id')
  @Requires('project:rename')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body(bodyOf('PUT /api/projects/{id}')) fields: BodyOf<'PUT /api/projects/{id}'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<ProjectData>> {
    return success({
      project: await this.projects.update(user.userId, id, fields, req),
    });
  }

  @Delete(':id')
  @Requires('project:delete')
  async remove(
    @Param('id') id: string,
    @CurrentProjectAccess() access: ProjectAccess,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<DeletedProjectData>> {
    const project = await this.projects.get((req.user as AuthenticatedUser).userId, id);
    await this.audit.record(
      {
        action: 'project.deleted',
        organizationId: access.organizationId,
        projectId: id,
        details: { name: project.name },
      },
      req,
    );
    return success({ id, background: await this.deletion.delete(id) });
  }

  @Post(':id/regenerate-api-key')
  @HttpCode(200)
  @Requires('keys:manage')
  async regenerate(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<RegeneratedKeyData>> {
    return success(await this.keys.regenerate(id, user.userId, req));
  }

  @Get(':id/members')
  @Requires('project:read')
  async members(@Param('id') id: string): Promise<SuccessEnvelope<{ members: ProjectMember[] }>> {
    return success({ members: await this.projects.members(id) });
  }

  @Post(':id/members')
  @Requires('members:manage')
  async addMember(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentProjectAccess() access: ProjectAccess,
    @Body(bodyOf('POST /api/projects/{id}/members'))
    body: BodyOf<'POST /api/projects/{id}/members'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<{ members: ProjectMember[]; invitation: Invitation | null }>> {
    return success(await this.projects.addMember({ ...access, userId: user.userId }, body, req));
  }

  @Delete(':id/members/:userId')
  @Requires('members:manage')
  async removeMember(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentProjectAccess() access: ProjectAccess,
    @Param('userId') memberId: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<{ members: ProjectMember[] }>> {
    return success({
      members: await this.projects.removeMember({ ...access, userId: user.userId }, memberId, req),
    });
  }

  @Put(':id/favourite')
  @Requires('project:read')
  async favourite(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<{ favourite: boolean }>> {
    await this.projects.setFavourite(user.userId, id, true);
    return success({ favourite: true });
  }

  @Delete(':id/favourite')
  @Requires('project:read')
  async unfavourite(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<SuccessEnvelope<{ favourite: boolean }>> {
    await this.projects.setFavourite(user.userId, id, false);
    return success({ favourite: false });
  }
}
