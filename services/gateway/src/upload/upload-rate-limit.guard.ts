import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Redis } from 'ioredis';
import { apiKeyPrincipal } from '../api-keys/index.js';
import { GatewayConfig } from '../config.js';

/** Reported as type "TooManyRequestsError". */
export class TooManyRequestsException extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Uploads per API key and minute, counted in Redis so every gateway replica shares the count.
 * Runs after ApiKeyGuard. When Redis is unreachable uploads are let through: they are stored in
 * Postgres, and refusing them would lose CI results for a cache outage.
 */
@Injectable()
export class UploadRateLimitGuard implements CanActivate {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.config.UPLOAD_RATE_LIMIT_PER_MINUTE;
    if (limit === 0) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const window = Math.floor(Date.now() / 60_000);
    const key = `${this.config.QUEUE_PREFIX}:ratelimit:upload:${apiKeyPrincipal(req).apiKeyId}:${window}`;
    let count: number;
    try {
      [[, count]] = (await this.redis.multi().incr(key).expire(key, 120).exec()) as [
        [null, number],
      ];
    } catch {
      return true;
    }
    if (count <= limit) return true;
    const retryAfter = Math.max(1, Math.ceil(((window + 1) * 60_000 - Date.now()) / 1000));
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfter));
    throw new TooManyRequestsException(
      `Upload rate limit of ${limit} per minute exceeded for this API key; retry after ${retryAfter} s`,
    );
  }
}
