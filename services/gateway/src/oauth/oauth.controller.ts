import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthExceptionFilter } from '../auth/auth-exception.filter.js';
import { publicUrl } from '../auth/auth.service.js';
import { GatewayConfig } from '../config.js';
import { redirectWithCode } from './flow-error.js';
import { OAuthService } from './oauth.service.js';
import { stateCookie } from './state-cookie.js';

/**
 * Browser-facing OAuth sign-in: `GET /auth/oauth/{github|google}` redirects to the provider;
 * its callback ends on the site root with `?code=` (exchange it with `POST /auth/token`) or
 * `?error=…&error_description=…`.
 */
@Controller('auth/oauth')
@UseFilters(AuthExceptionFilter)
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly config: GatewayConfig,
  ) {}

  @Get(':provider')
  async start(@Param('provider') provider: string, @Res() res: Response): Promise<void> {
    const { url, state } = await this.oauth.start(provider);
    stateCookie.set(res, state, publicUrl(this.config));
    res.redirect(302, url);
  }

  @Get(':provider/callback')
  async callback(
    @Param('provider') provider: string,
    @Query() query: Record<string, string | undefined>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const root = publicUrl(this.config);
    const bound = stateCookie.read(req);
    stateCookie.clear(res);
    await redirectWithCode(res, root, () => this.oauth.finish(provider, query, bound));
  }
}
