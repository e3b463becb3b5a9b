import { HttpException, HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@memtrail/contracts';
import { Redis } from 'ioredis';
import { GatewayConfig } from '../config.js';

/** 429; the envelope's `type` becomes TooManyRequestsError. */
export class TooManyRequestsException extends HttpException {
  constructor(
    readonly retryAfterS: number,
    message: string = AUTH_MESSAGES.tooManyRequests,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

export type RateLimitedAction = 'signin' | 'signup' | 'reset';

/** What a per-minute limit counts: the key prefix, and the first word of its 429 message. */
export type PerMinuteKind = 'upload' | 'summary';

// One round trip per counter: increment, and start the window on the first hit.
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
`;

/**
 * Fixed-window counters in Redis, per client IP and per account from that IP, shared by every
 * gateway replica. Every attempt counts, successful or not, so a limit cannot be reset by
 * interleaving a valid sign-in. An account is counted per address so that nobody can lock its
 * owner out by failing to sign in as them from elsewhere; guessing from many addresses is
 * bounded by scrypt's cost and each address's own limit.
 */
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger(RateLimitService.name);

  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** Counts one attempt; throws TooManyRequestsException when any counter is over its limit. */
  async hit(action: RateLimitedAction, ip: string, account: string | null): Promise<void> {
    const windowMs = this.config.AUTH_RATE_WINDOW_S * 1000;
    const counters: Array<[string, number]> = [[`ip:${ip}`, this.config.AUTH_RATE_LIMIT_PER_IP]];
    if (account) {
      counters.push([`account:${account}:ip:${ip}`, this.config.AUTH_RATE_LIMIT_PER_ACCOUNT]);
    }
    let retryAfterMs = 0;
    for (const [subject, limit] of counters) {
      const wait = await this.consume(`${action}:${subject}`, limit, windowMs);
      retryAfterMs = Math.max(retryAfterMs, wait);
    }
    if (retryAfterMs > 0) throw new TooManyRequestsException(Math.ceil(retryAfterMs / 1000));
  }

  /**
   * Counts one request of `kind` against `limit` per minute for `subject` (0: no limit); throws
   * 429 with the wait above it, naming `what` is limited. When Redis is unreachable the request
   * is let through: uploads are stored in Postgres and CI reads them, and refusing either over
   * a cache outage would lose CI results.
   */
  async perMinute(
    kind: PerMinuteKind,
    subject: string,
    limit: number,
    what: string,
  ): Promise<void> {
    if (limit === 0) return;
    let waitMs: number;
    try {
      waitMs = await this.consume(`${kind}:${subject}`, limit, 60_000);
    } catch (error) {
      this.logger.warn(`${kind} rate limit not checked, Redis failed: ${(error as Error).message}`);
      return;
    }
    if (waitMs === 0) return;
    const retryAfter = Math.ceil(waitMs / 1000);
    const Kind = kind[0]!.toUpperCase() + kind.slice(1);
    throw new TooManyRequestsException(
      retryAfter,
      `${Kind} rate limit of ${limit} per minute exceeded for ${what}; retry after ${retryAfter} s`,
    );
  }

  /**
   * Counts one hit on `subject` in the current window; returns 0 when within `limit`, else how
   * many milliseconds remain until the window resets.
   */
  async consume(subject: string, limit: number, windowMs: number): Promise<number> {
    const key = `${this.config.QUEUE_PREFIX}:ratelimit:${subject}`;
    const [count, ttl] = (await this.redis.eval(HIT, 1, key, windowMs)) as [number, number];
    return count > limit ? (ttl > 0 ? ttl : windowMs) : 0;
  }
}
