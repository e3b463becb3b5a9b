import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { GatewayConfig } from '../config.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { uploaderOf } from './auth/uploader.js';

/** Uploads per API key (or OIDC project) and minute. Runs after UploadAuthGuard. */
@Injectable()
export class UploadRateLimitGuard implements CanActivate {
  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const counter = uploaderOf(context.switchToHttp().getRequest<Request>()).rateLimit;
    if (!counter) return true;
    const limit = this.config.UPLOAD_RATE_LIMIT_PER_MINUTE;
    await this.limits.perMinute('upload', counter.subject, limit, counter.what);
    return true;
  }
}
