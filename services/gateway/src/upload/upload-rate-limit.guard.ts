import {
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { GatewayConfig } from '../config.js';
import { RateLimitService, TooManyRequestsException } from '../rate-limit/rate-limit.service.js';
import { uploaderOf } from './auth/uploader.js';

/**
 * Counts one upload against `limit` per minute for `subject`, in Redis so every gateway replica
 * shares the count; throws 429 (with the wait) above it. When Redis is unreachable uploads are
 * let through: they are stored in Postgres, and refusing them would lose CI results over a
 * cache outage.
 */
export async function countUpload(
  limits: RateLimitService,
  logger: Logger,
  subject: string,
  limit: number,
  what: string,
): Promise<void> {
  if (limit === 0) return;
  let waitMs: number;
  try {
    waitMs = await limits.consume(`upload:${subject}`, limit, 60_000);
  } catch (error) {
    logger.warn(`upload rate limit not checked, Redis failed: ${(error as Error).message}`);
    return;
  }
  if (waitMs === 0) return;
  const retryAfter = Math.ceil(waitMs / 1000);
  throw new TooManyRequestsException(
    retryAfter,
    `Upload rate limit of ${limit} per minute exceeded for ${what}; retry after ${retryAfter} s`,
  );
}

/** Uploads per API key (or OIDC project) and minute. Runs after UploadAuthGuard. */
@Injectable()
export class UploadRateLimitGuard implements CanActivate {
  private readonly logger = new Logger(UploadRateLimitGuard.name);

  constructor(
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const counter = uploaderOf(context.switchToHttp().getRequest<Request>()).rateLimit;
    if (!counter) return true;
    const limit = this.config.UPLOAD_RATE_LIMIT_PER_MINUTE;
    await countUpload(this.limits, this.logger, counter.subject, limit, counter.what);
    return true;
  }
}
