import {
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { apiKeyPrincipal } from '../api-keys/index.js';
import { GatewayConfig } from '../config.js';
import { RateLimitService, TooManyRequestsException } from '../rate-limit/rate-limit.service.js';

/**
 * `GET /summary` calls per API key and minute (SUMMARY_RATE_LIMIT_PER_MINUTE), counted in Redis
 * across replicas; 429 with the wait above it. CI asks once or twice per build, so the limit
 * only stops a leaked or looping key from making the gateway diff builds without end. Runs after
 * ApiKeyGuard; when Redis is unreachable summaries are answered, as uploads are.
 */
@Injectable()
export class SummaryRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(SummaryRateLimitGuard.name);

  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.SUMMARY_RATE_LIMIT_PER_MINUTE;
    if (limit === 0) return true;
    const key = apiKeyPrincipal(context.switchToHttp().getRequest<Request>());
    let waitMs: number;
    try {
      waitMs = await this.limits.consume(`summary:${key.apiKeyId}`, limit, 60_000);
    } catch (error) {
      this.logger.warn(`summary rate limit not checked, Redis failed: ${(error as Error).message}`);
      return true;
    }
    if (waitMs === 0) return true;
    const retryAfter = Math.ceil(waitMs / 1000);
    throw new TooManyRequestsException(
      retryAfter,
      `Summary rate limit of ${limit} per minute exceeded for this API key; retry after ${retryAfter} s`,
    );
  }
}
