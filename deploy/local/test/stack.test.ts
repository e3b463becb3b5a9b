import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureStores } from '../src/stores.js';
import { withStackLock } from '../src/lock.js';
import { pingRedis } from '../src/redis.js';
import { pingHttp } from '../src/clickhouse.js';

describe('local stack', () => {
  it('serialises concurrent start-ups with the stack lock', async () => {
    const events: string[] = [];
    const holder = (name: string) =>
      withStackLock(async () => {
        events.push(`${name}:in`);
        await sleep(50);
        events.push(`${name}:out`);
      });
    await Promise.all([holder('a'), holder('b'), holder('c')]);
    // Each holder leaves before the next enters.
    for (let i = 0; i < events.length; i += 2) {
      expect(events[i]?.replace(':in', '')).toBe(events[i + 1]?.replace(':out', ''));
    }
  });

  it('uses URLs from the environment as they are, without starting anything', async () => {
    const env = {
      DATABASE_URL: 'postgres://u@db.example:5432/x',
      REDIS_URL: 'redis://cache.example:6379',
      CLICKHOUSE_URL: 'http://ch.example:8123',
    };
    const { stores, status } = await ensureStores(env);
    expect(stores).toEqual(env);
    expect(status.map((s) => s.source)).toEqual(['external', 'external', 'external']);
  });

  it('starts the embedded stores, or reuses them when running, and they answer', async () => {
    const first = await ensureStores({});
    const second = await ensureStores({});
    expect(second.stores).toEqual(first.stores);
    expect(second.status.map((s) => s.source)).toEqual(['reused', 'reused', 'reused']);
    const redis = new URL(first.stores.REDIS_URL);
    expect(await pingRedis(redis.hostname, Number(redis.port))).toBe(true);
    expect(await pingHttp(`${first.stores.CLICKHOUSE_URL}/ping`)).toBe(true);
  });
});
