import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection suitable for BullMQ: blocking commands must never time out, so
 * `maxRetriesPerRequest` is null (BullMQ refuses workers without it).
 */
export function createRedisConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...options });
}

/** Resolves once the connection is ready, or rejects with the URL's host in the message. */
export async function waitForRedis(redis: Redis, timeoutMs = 5000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `Redis not ready after ${timeoutMs} ms (${redis.options.host}:${redis.options.port})`,
          ),
        ),
      timeoutMs,
    );
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
