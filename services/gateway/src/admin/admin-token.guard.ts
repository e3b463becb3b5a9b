import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ForbiddenException,
  Inject,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { Request } from 'express';
import { bearerToken } from '../api-keys/index.js';
import { GatewayConfig } from '../config.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Operator endpoints take the deployment's ADMIN_TOKEN as a bearer token. Without one
 * configured they are off. Digests make the comparison constant-time whatever the lengths.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.ADMIN_TOKEN;
    if (!expected)
      throw new ForbiddenException('The admin API is disabled: set ADMIN_TOKEN to enable it');
    const given = bearerToken(context.switchToHttp().getRequest<Request>());
    if (!given || !timingSafeEqual(digest(given), digest(expected))) {
      throw new UnauthorizedException(
        'Admin token required: send Authorization: Bearer <ADMIN_TOKEN>',
      );
    }
    return true;
  }
}
