import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Req,
  UseGuards,
} from '@nestjs/common';
import {
  success,
  type AcceptedInvitationData,
  type InvitationData,
  type InvitationPreview,
  type InvitationsData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import {
  AccessGuard,
  CurrentOrganizationAccess,
  RequiresAccount,
  RequiresOnOrganization,
} from '../access/access.guard.js';
import { bodyOf, type BodyOf } from '../http/input.js';
import { requireUuid, type OrganizationAccess } from '../access/access.service.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { InvitationsService } from './invitations.service.js';

/** `/api/orgs/{org}/invitations`: pending invitations, for owners and admins. */
@Controller('api/orgs/:org/invitations')
@UseGuards(AccessGuard)
@RequiresOnOrganization('members:manage')
export class OrganizationInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  async list(@Param('org') org: string): Promise<SuccessEnvelope<InvitationsData>> {
    return success({ invitations: await this.invitations.list(org) });
  }

  @Post()
  async invite(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentOrganizationAccess() access: OrganizationAccess,
    @Body(bodyOf('POST /api/orgs/{org}/invitations'))
    body: BodyOf<'POST /api/orgs/{org}/invitations'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<InvitationData>> {
    const invitation = await this.invitations.invite(
      { userId: user.userId, role: access.role },
      access.organizationId,
      body,
      req,
    );
    return success({ invitation });
  }

  @Delete(':id')
  async revoke(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<InvitationData>> {
    const invitation = await this.invitations.revoke(org, requireUuid(id, 'Invitation'), req);
    return success({ invitation });
  }

  @Post(':id/resend')
  @HttpCode(200)
  async resend(
    @Param('org') org: string,
    @Param('id') id: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<InvitationData>> {
    const invitation = await this.invitations.resend(org, requireUuid(id, 'Invitation'), req);
    return success({ invitation });
  }
}

/** `/api/invitations/…`: what an invitation link shows, and accepting it. */
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  /** Open to anyone holding the link: its 256-bit token is the secret. */
  @Get(':token')
  async preview(@Param('token') token: string): Promise<SuccessEnvelope<InvitationPreview>> {
    return success(await this.invitations.preview(token));
  }

  @Post('accept')
  @HttpCode(200)
  @UseGuards(AccessGuard)
  @RequiresAccount()
  async accept(
    @CurrentUser() user: AuthenticatedUser,
    @Body(bodyOf('POST /api/invitations/accept')) body: BodyOf<'POST /api/invitations/accept'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<AcceptedInvitationData>> {
    return success(await this.invitations.accept(user.userId, body.token, req));
  }
}
