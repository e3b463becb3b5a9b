import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { closeAll, createLogger, NestPinoLogger } from '@memtrail/logging';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { stream, lines };
}

describe('logging', () => {
  it('writes one JSON object per line with the service and level name', async () => {
    const { stream, lines } = capture();
    const logger = createLogger({ service: 'gateway', destination: stream });
    logger.info({ port: 5000 }, 'listening');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({
      service: 'gateway',
      level: 'info',
      port: 5000,
      msg: 'listening',
    });
    expect(typeof lines[0]?.time).toBe('string');
  });

  it('maps Nest logger calls, keeping the context and the stack', async () => {
    const { stream, lines } = capture();
    const nest = new NestPinoLogger(createLogger({ service: 'query', destination: stream }));
    nest.log('Mapped route', 'RouterExplorer');
    nest.error('boom', 'Error: boom\n    at x', 'ExceptionsHandler');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({
      level: 'info',
      context: 'RouterExplorer',
      msg: 'Mapped route',
    });
    expect(lines[1]).toMatchObject({ level: 'error', context: 'ExceptionsHandler', msg: 'boom' });
    expect(String(lines[1]?.stack)).toContain('at x');
  });

  it('closes every connection at shutdown, logging the ones that fail by name', async () => {
    const closed: string[] = [];
    const errors: string[] = [];
    await closeAll(
      {
        postgres: async () => void closed.push('postgres'),
        redis: () => Promise.reject(new Error('connection reset')),
        clickhouse: async () => void closed.push('clickhouse'),
      },
      { error: (message) => errors.push(message) },
    );
    expect(closed.sort()).toEqual(['clickhouse', 'postgres']);
    expect(errors).toEqual(['closing redis failed at shutdown: connection reset']);
  });
});
