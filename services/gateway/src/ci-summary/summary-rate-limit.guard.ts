import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { apiKeyPrincipal } from '../api-keys/index.js';
import { GatewayConfig } from '../config.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';

/**
 * `GET /summary` calls per API key and minute (SUMMARY_RATE_LIMIT_PER_MINUTE), counted in Redis
 * across replicas; 429 with the wait above it. CI asks once or twice per build, so the limit
 * only stops a leaked or looping key from making the gateway diff builds without end. Runs after
 * ApiKeyGuard; when Redis is unreachable summaries are answered, as uploads are.
 */
@Injectable()
export class SummaryRateLimitGuard implements CanActivate {
  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const key = apiKeyPrincipal(context.switchToHttp().getRequest<Request>());
    const limit = this.config.SUMMARY_RATE_LIMIT_PER_MINUTE;
    await this.limits.perMinute('summary', key.apiKeyId, limit, 'this API key');
    return true;
  }
}
