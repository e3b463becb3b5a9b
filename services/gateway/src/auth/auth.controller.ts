import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import {
  AUTH_MESSAGES,
  type AuthResponse,
  type AuthSession,
  type AuthSettings,
  type AuthUser,
  type PendingConfirmation,
} from '@memtrail/contracts';
import type { Request, Response } from 'express';
import { SignInAudit } from '../audit/sign-in-audit.service.js';
import { GatewayConfig } from '../config.js';
import { bodyOf, type BodyOf } from '../http/input.js';
import { RateLimit, RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { AuthExceptionFilter } from './auth-exception.filter.js';
import { AuthService, publicUrl } from './auth.service.js';
import { CurrentUser, JwtAuthGuard } from './jwt-auth.guard.js';
import type { AuthenticatedUser } from './jwt.strategy.js';
import { SessionService } from './session.service.js';

function ok<T>(data: T, message?: string): AuthResponse<T> {
  return { success: true, data, error: null, ...(message !== undefined && { message }) };
}

/**
 * Password accounts and sessions (spec §7 on-premises calls plus the hosted flows). Every answer
 * is `{success, data, error}`.
 */
@Controller('auth')
@UseFilters(AuthExceptionFilter)
@UseGuards(RateLimitGuard)
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
    private readonly config: GatewayConfig,
    private readonly signIns: SignInAudit,
  ) {}

  @Get('settings')
  settings(): AuthResponse<AuthSettings> {
    return ok(this.auth.settings());
  }

  @Post('signup')
  @HttpCode(200)
  @RateLimit('signup')
  async signup(
    @Body(bodyOf('POST /auth/signup')) input: BodyOf<'POST /auth/signup'>,
  ): Promise<AuthResponse<AuthSession | PendingConfirmation>> {
    const result = await this.auth.signUp(input);
    return 'confirmation_sent' in result ? ok(result, AUTH_MESSAGES.confirmationSent) : ok(result);
  }

  @Post('login')
  @HttpCode(200)
  @RateLimit('signin')
  async login(
    @Body(bodyOf('POST /auth/login')) { email, password }: BodyOf<'POST /auth/login'>,
    @Req() req: Request,
  ): Promise<AuthResponse<AuthSession>> {
    const session = await this.auth.signIn(email, password);
    await this.signIns.record(session, 'password', req);
    return ok(session);
  }

  @Post('refresh')
  @HttpCode(200)
  async refresh(
    @Body(bodyOf('POST /auth/refresh')) body: BodyOf<'POST /auth/refresh'>,
  ): Promise<AuthResponse<AuthSession>> {
    return ok(await this.sessions.refresh(body.refresh_token));
  }

  @Post('logout')
  @HttpCode(200)
  async logout(
    @Body(bodyOf('POST /auth/logout')) body: BodyOf<'POST /auth/logout'>,
  ): Promise<AuthResponse<null>> {
    await this.sessions.end(body.refresh_token);
    return ok(null);
  }

  @Get('user')
  @UseGuards(JwtAuthGuard)
  async user(@CurrentUser() user: AuthenticatedUser): Promise<AuthResponse<{ user: AuthUser }>> {
    return ok({ user: await this.auth.currentUser(user.userId) });
  }

  /** Update password while signed in, with the current one; sessions end, a new one starts. */
  @Put('password')
  @UseGuards(JwtAuthGuard)
  @RateLimit('signin')
  async updatePassword(
    @CurrentUser() user: AuthenticatedUser,
    @Body(bodyOf('PUT /auth/password')) body: BodyOf<'PUT /auth/password'>,
  ): Promise<AuthResponse<AuthSession>> {
    return ok(await this.auth.updatePassword(user.userId, body.current_password, body.password));
  }

  /** Sends the reset link (to `/reset-password?token=…` on our own origin). */
  @Post('recover')
  @HttpCode(200)
  @RateLimit('reset')
  async recover(
    @Body(bodyOf('POST /auth/recover')) body: BodyOf<'POST /auth/recover'>,
  ): Promise<AuthResponse<null>> {
    await this.auth.requestReset(body.email);
    return ok(null, AUTH_MESSAGES.resetSent);
  }

  @Post('reset-password')
  @HttpCode(200)
  @RateLimit('reset')
  async resetPassword(
    @Body(bodyOf('POST /auth/reset-password')) body: BodyOf<'POST /auth/reset-password'>,
  ): Promise<AuthResponse<AuthSession>> {
    return ok(await this.auth.resetPassword(body.token, body.password));
  }

  /** The mailed confirmation link: confirms, then lands on the site root with a sign-in code. */
  @Get('confirm')
  async confirm(@Query('token') token: unknown, @Res() res: Response): Promise<void> {
    const root = publicUrl(this.config);
    try {
      const code = await this.auth.confirmEmail(typeof token === 'string' ? token : '');
      res.redirect(302, `${root}/?code=${encodeURIComponent(code)}`);
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      const description = encodeURIComponent(AUTH_MESSAGES.invalidLink);
      res.redirect(302, `${root}/?error=invalid_link&error_description=${description}`);
    }
  }

  /** Redeems the one-time code that confirmation and OAuth put on the site root. */
  @Post('token')
  @HttpCode(200)
  async token(
    @Body(bodyOf('POST /auth/token')) body: BodyOf<'POST /auth/token'>,
    @Req() req: Request,
  ): Promise<AuthResponse<AuthSession>> {
    const session = await this.auth.exchangeCode(body.code);
    await this.signIns.record(session, 'link', req);
    return ok(session);
  }
}
