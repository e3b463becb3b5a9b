import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthExceptionFilter } from '../auth/auth-exception.filter.js';
import { publicUrl } from '../auth/auth.service.js';
import { GatewayConfig } from '../config.js';
import { OAuthFlowError, OAuthService } from './oauth.service.js';

const STATE_COOKIE = 'mt_oauth_state';

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

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
    res.cookie(STATE_COOKIE, state, {
      httpOnly: true,
      sameSite: 'lax',
      secure: publicUrl(this.config).startsWith('https:'),
      path: '/auth/oauth',
      maxAge: 600_000,
    });
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
    res.clearCookie(STATE_COOKIE, { path: '/auth/oauth' });
    try {
      const code = await this.oauth.finish(provider, query, cookie(req, STATE_COOKIE));
      res.redirect(302, `${root}/?code=${encodeURIComponent(code)}`);
    } catch (error) {
      if (!(error instanceof OAuthFlowError)) throw error;
      const params = new URLSearchParams({ error: error.code, error_description: error.message });
      res.redirect(302, `${root}/?${params.toString()}`);
    }
  }
}
