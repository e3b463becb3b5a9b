import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { GatewayConfig } from '../config.js';

/**
 * The HS256 key for access tokens. Production must set JWT_SECRET (the config schema enforces
 * it). Elsewhere a default is derived from DATABASE_URL, so every gateway replica of one
 * development stack agrees without setup, while anyone who knows the URL can forge tokens —
 * hence the loud warning.
 */
export function resolveJwtSecret(config: GatewayConfig): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  if (config.NODE_ENV === 'production') throw new Error('JWT_SECRET is required in production');
  new Logger('Auth').warn(
    'JWT_SECRET is not set: using a development key derived from DATABASE_URL. ' +
      'Anyone who knows the database URL can forge sessions. Set JWT_SECRET before exposing this gateway.',
  );
  return createHash('sha256').update(`memtrail-dev-jwt:${config.DATABASE_URL}`).digest('hex');
}
