import {
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { apiKeyPrincipal } from '../api-keys/index.js';
import { GatewayConfig } from '../config.js';
import { RateLimitService, TooManyRequestsException } from '../rate-limit/rate-limit.service.js';

/**
 * Uploads per API key and minute, counted in Redis so every gateway replica shares the count.
 * Runs after ApiKeyGuard. When Redis is unreachable uploads are let through: they are stored in
 * Postgres, and refusing them would lose CI results over a cache outage.
 */
@Injectable()
export class UploadRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(UploadRateLimitGuard.name);

  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.UPLOAD_RATE_LIMIT_PER_MINUTE;
    if (limit === 0) return true;
    const key = apiKeyPrincipal(context.switchToHttp().getRequest<Request>());
    let waitMs: number;
    try {
      waitMs = await this.limits.consume(`upload:${key.apiKeyId}`, limit, 60_000);
    } catch (error) {
      this.logger.warn(`upload rate limit not checked, Redis failed: ${(error as Error).message}`);
      return true;
    }
    if (waitMs === 0) return true;
    const retryAfter = Math.ceil(waitMs / 1000);
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfter));
    throw new TooManyRequestsException(
      retryAfter,
      `Upload rate limit of ${limit} per minute exceeded for this API key; retry after ${retryAfter} s`,
    );
  }
}
