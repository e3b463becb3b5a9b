#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startEmbeddedClickHouse, type EmbeddedClickHouse } from './server.js';

const USAGE = `Usage: memtrail-embedded-clickhouse --data-dir <dir> [--port 8123] [--host 127.0.0.1] [--connections 3]

Serves the ClickHouse HTTP protocol on an embedded ClickHouse (chdb) that keeps
its databases in <dir>. Stops cleanly on SIGTERM / SIGINT.`;

/** One JSON object per line on stdout, so supervisors can parse the log. */
function log(level: 'info' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, service: 'embedded-clickhouse', msg, ...fields })}\n`,
  );
}

function describe(err: unknown): Record<string, unknown> {
  return err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
}

function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer between 0 and 65535, got '${value}'`);
  }
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      connections: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error(`--data-dir is required\n${USAGE}`);
  const connections = values.connections === undefined ? undefined : Number(values.connections);
  if (connections !== undefined && !(Number.isInteger(connections) && connections > 0)) {
    throw new Error(`--connections must be a positive integer, got '${values.connections}'`);
  }

  const server: EmbeddedClickHouse = await startEmbeddedClickHouse({
    dataDir,
    host: values.host ?? '127.0.0.1',
    port: parsePort(values.port, 8123),
    ...(connections === undefined ? {} : { connections }),
    onError: (err, context) => log('error', 'request failed', { ...context, ...describe(err) }),
  });
  log('info', 'started', {
    url: server.url,
    dataDir: server.dataDir,
    version: server.version,
    pid: process.pid,
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => {
        log('info', 'stopped', { signal });
        process.exit(0);
      },
      (err: unknown) => {
        log('error', 'stop failed', { signal, ...describe(err) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  log('error', 'failed to start', describe(err));
  process.exit(1);
});
