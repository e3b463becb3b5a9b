import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { GatewayConfig } from '../config.js';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token.js';

const HANDOFF_TTL_S = 120;

/**
 * Flows that end in a browser redirect (email confirmation, OAuth) must not put tokens in the
 * URL. They put a one-time code on the site root instead (`/?code=…`); the web exchanges it
 * with `POST /auth/token` within two minutes. Codes live in Redis so any replica can redeem them.
 */
@Injectable()
export class SessionHandoffService {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async issue(userId: string): Promise<string> {
    const code = newOpaqueToken();
    await this.redis.set(this.key(code), userId, 'EX', HANDOFF_TTL_S);
    return code;
  }

  /** The user the code was issued for, once; null when unknown, used or expired. */
  async redeem(code: string): Promise<string | null> {
    return this.redis.getdel(this.key(code));
  }

  private key(code: string): string {
    return `${this.config.QUEUE_PREFIX}:auth:handoff:${hashOpaqueToken(code)}`;
  }
}
