import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createIsolatedStores, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { startGateway, type Gateway } from '../../services/gateway/test/support/gateway-harness.js';

const COMMIT = 'c'.repeat(40);

describe('GET /summary rate limit', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  const keys: string[] = [];

  beforeAll(async () => {
    stores = await createIsolatedStores();
    gw = await startGateway(stores, { SUMMARY_RATE_LIMIT_PER_MINUTE: '2' });
    const owner = await gw.prisma.user.create({ data: { email: 'ci@example.com' } });
    for (const name of ['A', 'B']) {
      keys.push((await createProjectWithKey(gw.prisma, owner.id, `Board ${name}`)).apiKey);
    }
  });

  afterAll(async () => {
    await gw?.close();
    await stores?.cleanup();
  });

  const summary = async (key: string) => {
    const response = await fetch(`${gw.url}/summary?commit=${COMMIT}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as { success: boolean; error?: string },
    };
  };

  it('answers a key 429 with the wait once it asked more than the limit in a minute', async () => {
    // Every call counts, answered or not (the commit has no report: 404).
    expect((await summary(keys[0]!)).status).toBe(404);
    expect((await summary(keys[0]!)).status).toBe(404);
    const refused = await summary(keys[0]!);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toMatch(/^\d+$/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body.error).toMatch(
      /^Summary rate limit of 2 per minute exceeded for this API key; retry after \d+ s$/,
    );
    // Another key has its own count.
    expect((await summary(keys[1]!)).status).toBe(404);
  });
});
