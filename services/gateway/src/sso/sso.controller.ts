import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { success, type SsoConnectionData, type SuccessEnvelope } from '@memtrail/contracts';
import type { Request, Response } from 'express';
import { AccessGuard, RequiresOnOrganization } from '../access/access.guard.js';
import { AuthExceptionFilter } from '../auth/auth-exception.filter.js';
import { publicUrl } from '../auth/auth.service.js';
import { GatewayConfig } from '../config.js';
import { bodyOf, queryOf, type BodyOf, type QueryOf } from '../http/input.js';
import { redirectWithCode } from '../oauth/flow-error.js';
import { stateCookie } from '../oauth/state-cookie.js';
import { SsoConnectionsService } from './sso-connections.service.js';
import { SsoSignInService } from './sso-sign-in.service.js';

/** `/api/orgs/{org}/sso`: the organisation's OIDC connection (owners). */
@Controller('api/orgs/:org/sso')
@UseGuards(AccessGuard)
@RequiresOnOrganization('org:manage')
export class SsoConnectionController {
  constructor(private readonly connections: SsoConnectionsService) {}

  @Get()
  async get(@Param('org') org: string): Promise<SuccessEnvelope<SsoConnectionData>> {
    return success({ sso: await this.connections.get(org) });
  }

  @Put()
  async put(
    @Param('org') org: string,
    @Body(bodyOf('PUT /api/orgs/{org}/sso')) body: BodyOf<'PUT /api/orgs/{org}/sso'>,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<SsoConnectionData>> {
    return success({ sso: await this.connections.put(org, body, req) });
  }

  @Delete()
  async remove(
    @Param('org') org: string,
    @Req() req: Request,
  ): Promise<SuccessEnvelope<SsoConnectionData>> {
    await this.connections.remove(org, req);
    return success({ sso: null });
  }
}

/**
 * Browser-facing SSO sign-in: `GET /auth/sso?email=…` (or `?organization=<id>`) redirects to the
 * organisation's provider; its callback ends on the site root with `?code=` (exchange it with
 * `POST /auth/token`) or `?error=…&error_description=…`, as OAuth sign-in does.
 */
@Controller('auth/sso')
@UseFilters(AuthExceptionFilter)
export class SsoSignInController {
  constructor(
    private readonly sso: SsoSignInService,
    private readonly config: GatewayConfig,
  ) {}

  @Get()
  async start(
    @Query(queryOf('GET /auth/sso')) query: QueryOf<'GET /auth/sso'>,
    @Res() res: Response,
  ): Promise<void> {
    const { url, state } = await this.sso.start(query);
    stateCookie.set(res, state, publicUrl(this.config));
    res.redirect(302, url);
  }

  @Get('callback')
  async callback(
    @Query() query: Record<string, string | undefined>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const root = publicUrl(this.config);
    const bound = stateCookie.read(req);
    stateCookie.clear(res);
    await redirectWithCode(res, root, () => this.sso.finish(query, bound, req));
  }
}
