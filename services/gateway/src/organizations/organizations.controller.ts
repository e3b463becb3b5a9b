import { Body, Controller, Delete, Get, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import {
  success,
  type OrganizationData,
  type OrganizationMembersData,
  type OrganizationsData,
  type SuccessEnvelope,
} from '@memtrail/contracts';
import type { Request } from 'express';
import {
  AccessGuard,
  CurrentOrganizationAccess,
  RequiresAccount,
  RequiresOnOrganization,
} from '../access/access.guard.js';
import { requireUuid, type OrganizationAccess } from '../access/access.service.js';
import { CurrentUser } from '../auth/jwt-auth.guard.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';
import { OrganizationsService } from './organizations.service.js';
import { bodyOf, type BodyOf } from '../http/input.js';

/** `/api/orgs`: the caller's organisations, their settings and members. */
@Controller('api/orgs')
@UseGuards(AccessGuard)
export class OrganizationsController {
  constructor(private readonly organizations: OrganizationsService) {}

  @Get()
  @RequiresAccount()
  async list(@CurrentUser() user: AuthenticatedUser): Promise<SuccessEnvelope<OrganizationsData>> {
    return success({ organizations: await this.organizations.list(user.userId) });
  }

  @Post()
  @RequiresAccount()
  async create(
    @CurrentUser() user: AuthenticatedUser,
    @Body(bodyOf('POST /api/orgs')) body: BodyOf<'POST /api/orgs'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<OrganizationData>> {
    return success({ organization: await this.organizations.create(user.userId, body.name, req) });
  }

  @Get(':org')
  @RequiresOnOrganization('member')
  async get(
    @CurrentUser() user: AuthenticatedUser,
    @Param('org') org: string,
  ): Promise<SuccessEnvelope<OrganizationData>> {
    return success({ organization: await this.organizations.get(user.userId, org) });
  }

  @Put(':org')
  @RequiresOnOrganization('org:manage')
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('org') org: string,
    @Body(bodyOf('PUT /api/orgs/{org}')) body: BodyOf<'PUT /api/orgs/{org}'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<OrganizationData>> {
    return success({
      organization: await this.organizations.update(user.userId, org, body, req),
    });
  }

  @Delete(':org')
  @RequiresOnOrganization('org:manage')
  async remove(@Param('org') org: string): Promise<SuccessEnvelope<{ id: string }>> {
    await this.organizations.remove(org);
    return success({ id: org });
  }

  @Get(':org/members')
  @RequiresOnOrganization('member')
  async members(@Param('org') org: string): Promise<SuccessEnvelope<OrganizationMembersData>> {
    return success({ members: await this.organizations.members(org) });
  }

  @Put(':org/members/:userId')
  @RequiresOnOrganization('members:manage')
  async setRole(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentOrganizationAccess() access: OrganizationAccess,
    @Param('userId') memberId: string,
    @Body(bodyOf('PUT /api/orgs/{org}/members/{userId}'))
    body: BodyOf<'PUT /api/orgs/{org}/members/{userId}'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<OrganizationMembersData>> {
    const members = await this.organizations.setRole(
      { userId: user.userId, role: access.role },
      access.organizationId,
      requireUuid(memberId, 'Member'),
      body.role,
      req,
    );
    return success({ members });
  }

  /** Removes a member (owners and admins) or leaves the organisation (anyone, for themselves). */
  @Delete(':org/members/:userId')
  @RequiresOnOrganization('member')
  async removeMember(
    @CurrentUser() user: AuthenticatedUser,
    @CurrentOrganizationAccess() access: OrganizationAccess,
    @Param('userId') memberId: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<OrganizationMembersData>> {
    const members = await this.organizations.removeMember(
      { userId: user.userId, role: access.role },
      access.organizationId,
      requireUuid(memberId, 'Member'),
      req,
    );
    return success({ members });
  }
}
