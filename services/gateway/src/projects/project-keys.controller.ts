import { Body, Controller, Delete, Get, Param, Post, Req, UseGuards } from '@nestjs/common';
import {
  success,
  type ApiKeyInfo,
  type ApiKeysData,
  type CreatedApiKeyData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import { AccessGuard, CurrentProjectAccess, Requires } from '../access/access.guard.js';
import type { ProjectAccess } from '../access/access.service.js';
import { KeyManagementService } from '../api-keys/key-management.service.js';
import { bodyOf, type BodyOf } from '../http/input.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';

/** `/api/projects/{id}/keys`: the project's named upload and read keys. */
@Controller('api/projects/:id/keys')
@UseGuards(AccessGuard)
@Requires('keys:create')
export class ProjectKeysController {
  constructor(private readonly keys: KeyManagementService) {}

  @Get()
  async list(@Param('id') id: string): Promise<SuccessEnvelope<ApiKeysData>> {
    return success({ keys: await this.keys.list({ projectId: id }) });
  }

  @Post()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body(bodyOf('POST /api/projects/{id}/keys')) input: BodyOf<'POST /api/projects/{id}/keys'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<CreatedApiKeyData>> {
    return success(await this.keys.create({ projectId: id }, input, user.userId, req));
  }

  @Delete(':keyId')
  async revoke(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentProjectAccess() access: ProjectAccess,
    @Param('keyId') keyId: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<{ key: ApiKeyInfo }>> {
    const actor = { userId: user.userId, role: access.role };
    return success({
      key: await this.keys.revoke({ projectId: access.projectId }, keyId, actor, req),
    });
  }
}
