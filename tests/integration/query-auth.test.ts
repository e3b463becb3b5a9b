import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestMicroservice } from '@nestjs/common';
import { ClientProxyFactory, Transport, type ClientProxy } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';
import { QueryPatterns } from '@memtrail/contracts';
import { createIsolatedStores, freePort, type IsolatedStores } from '@memtrail/testing';
import { createQueryClient } from '../../services/gateway/src/infra/query-client.js';
import { TEST_QUERY_SECRET } from '../../services/gateway/test/support/gateway-harness.js';
import { startQueryService } from './support/read-services.js';

/**
 * The query service's TCP port answers only the gateway: whoever else reaches it (another pod,
 * a process on the host) gets no tenant's data without the shared QUERY_SECRET.
 */
describe('query service: only signed messages are answered', () => {
  let stores: IsolatedStores;
  let query: INestMicroservice;
  let port: number;
  const clients: ClientProxy[] = [];

  const ask = (client: ClientProxy, pattern: string, data: object) =>
    firstValueFrom(client.send(pattern, data)).then(
      (reply: unknown) => ({ reply }),
      (error: unknown) => ({ error: (error as { message?: string }).message ?? String(error) }),
    );
  const client = (create: () => ClientProxy) => {
    const made = create();
    clients.push(made);
    return made;
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    port = await freePort();
    query = await startQueryService(stores, port);
  });

  afterAll(async () => {
    for (const made of clients) made.close();
    await query?.close();
    await stores?.cleanup();
  });

  it('answers the gateway, which signs with the shared secret', async () => {
    const gateway = client(() => createQueryClient('127.0.0.1', port, TEST_QUERY_SECRET));
    const answer = await ask(gateway, QueryPatterns.ping, {});
    expect(answer).toMatchObject({ reply: { service: 'query' } });
  });

  it('refuses a caller without the secret, whatever it asks', async () => {
    const stranger = client(() =>
      ClientProxyFactory.create({ transport: Transport.TCP, options: { host: '127.0.0.1', port } }),
    );
    for (const [pattern, data] of [
      [QueryPatterns.ping, {}],
      [QueryPatterns.heads, { projectId: '00000000-0000-0000-0000-000000000000', target: 'board' }],
    ] as const) {
      expect(await ask(stranger, pattern, data)).toEqual({
        error: 'Unauthenticated message: the message is not signed',
      });
    }
  });

  it('refuses a caller with another secret', async () => {
    const impostor = client(() =>
      createQueryClient('127.0.0.1', port, `${TEST_QUERY_SECRET.slice(1)}x`),
    );
    const answer = await ask(impostor, QueryPatterns.ping, {});
    expect(answer).toEqual({
      error:
        'Unauthenticated message: the signature does not match (is QUERY_SECRET the same on both sides?)',
    });
  });
});
