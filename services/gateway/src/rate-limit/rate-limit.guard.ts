import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { normalizeEmail } from '@memtrail/contracts';
import type { Request, Response } from 'express';
import {
  RateLimitService,
  TooManyRequestsException,
  type RateLimitedAction,
} from './rate-limit.service.js';

const RATE_LIMIT_ACTION = 'memtrail:rate-limit-action';

/** Marks a route as limited per IP and per `body.email`; needs `@UseGuards(RateLimitGuard)`. */
export const RateLimit = (action: RateLimitedAction) => SetMetadata(RATE_LIMIT_ACTION, action);

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const action = this.reflector.get<RateLimitedAction | undefined>(
      RATE_LIMIT_ACTION,
      context.getHandler(),
    );
    if (!action) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const email = (req.body as { email?: unknown } | undefined)?.email;
    const account = typeof email === 'string' && email.trim() ? normalizeEmail(email) : null;
    try {
      await this.limits.hit(action, req.ip ?? req.socket.remoteAddress ?? 'unknown', account);
    } catch (error) {
      if (error instanceof TooManyRequestsException) {
        http.getResponse<Response>().setHeader('Retry-After', String(error.retryAfterS));
      }
      throw error;
    }
    return true;
  }
}
