import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, ServerTCP, type ClientProxy } from '@nestjs/microservices';
import type { INestMicroservice } from '@nestjs/common';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, currentRequestId, runWithRequestId } from '@memtrail/logging';
import { ServiceMetrics } from '@memtrail/metrics';
import { firstValueFrom } from 'rxjs';
import { createQueryClient } from '../../services/gateway/src/infra/query-client.js';
import {
  propagateRequestIds,
  RpcMetricsInterceptor,
} from '../../services/query/src/observability.js';

const lines: Record<string, unknown>[] = [];
const logger = createLogger({
  service: 'query',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }),
});

@Controller()
class EchoController {
  @MessagePattern('test.echo')
  async echo(): Promise<string | undefined> {
    // An await first: the id must survive async hops, not only the synchronous start.
    await new Promise((resolve) => setTimeout(resolve, 5));
    logger.info('handling echo');
    return currentRequestId();
  }

  @MessagePattern('test.fail')
  fail(): never {
    throw new Error('boom');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

/** The real query-service hooks and the real gateway client, over a real TCP socket. */
describe('request ids gateway -> query', () => {
  const metrics = new ServiceMetrics('query');
  let app: INestMicroservice;
  let client: ClientProxy;

  beforeAll(async () => {
    const server = new ServerTCP({ host: '127.0.0.1', port: 0 });
    propagateRequestIds(server);
    app = await NestFactory.createMicroservice(EchoModule, { strategy: server, logger: false });
    app.useGlobalInterceptors(new RpcMetricsInterceptor(metrics));
    await app.listen();
    const port = (server.unwrap<import('node:net').Server>().address() as AddressInfo).port;
    client = createQueryClient('127.0.0.1', port, 'q'.repeat(16) + 'r'.repeat(16));
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('runs the handler under the caller request id, and logs carry it', async () => {
    const seen = await runWithRequestId('req-abc-123', () =>
      firstValueFrom(client.send<string>('test.echo', {})),
    );
    expect(seen).toBe('req-abc-123');
    expect(lines.find((l) => l['msg'] === 'handling echo')).toMatchObject({
      requestId: 'req-abc-123',
      service: 'query',
    });
  });

  it('gives calls without a request id a fresh one', async () => {
    const [a, b] = await Promise.all([
      firstValueFrom(client.send<string>('test.echo', {})),
      firstValueFrom(client.send<string>('test.echo', {})),
    ]);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });

  it('times handlers by pattern and outcome', async () => {
    await expect(firstValueFrom(client.send('test.fail', {}))).rejects.toBeDefined();
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /memtrail_rpc_duration_seconds_count\{service="query",pattern="test\.echo",outcome="ok"\} 3/,
    );
    expect(text).toMatch(
      /memtrail_rpc_duration_seconds_count\{service="query",pattern="test\.fail",outcome="error"\} 1/,
    );
    expect(text).toMatch(/memtrail_errors_total\{kind="rpc",service="query"\} 1/);
  });
});
