import { Body, Controller, Delete, Get, Param, Post, Req, UseGuards } from '@nestjs/common';
import {
  success,
  type ApiKeyInfo,
  type ApiKeysData,
  type CreatedApiKeyData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import {
  AccessGuard,
  CurrentOrganizationAccess,
  RequiresOnOrganization,
} from '../access/access.guard.js';
import type { OrganizationAccess } from '../access/access.service.js';
import { KeyManagementService } from '../api-keys/key-management.service.js';
import { bodyOf, type BodyOf } from '../http/input.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';

/**
 * `/api/orgs/{org}/tokens`: organisation CI tokens, which may upload to any project of the
 * organisation (the upload names it in X-Memtrail-Project). Owners only.
 */
@Controller('api/orgs/:org/tokens')
@UseGuards(AccessGuard)
@RequiresOnOrganization('org:manage')
export class OrganizationTokensController {
  constructor(private readonly keys: KeyManagementService) {}

  @Get()
  async list(@Param('org') org: string): Promise<SuccessEnvelope<ApiKeysData>> {
    return success({ keys: await this.keys.list({ organizationId: org }) });
  }

  @Post()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('org') org: string,
    @Body(bodyOf('POST /api/orgs/{org}/tokens')) input: BodyOf<'POST /api/orgs/{org}/tokens'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<CreatedApiKeyData>> {
    return success(await this.keys.create({ organizationId: org }, input, user.userId, req));
  }

  @Delete(':keyId')
  async revoke(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentOrganizationAccess() access: OrganizationAccess,
    @Param('keyId') keyId: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<{ key: ApiKeyInfo }>> {
    const actor = { userId: user.userId, role: access.role };
    const key = await this.keys.revoke(
      { organizationId: access.organizationId },
      keyId,
      actor,
      req,
    );
    return success({ key });
  }
}
