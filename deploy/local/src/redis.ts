import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Socket } from 'node:net';
import { logFile, pidFile, stackPaths } from './paths.js';
import { stackPorts } from './ports.js';
import { runningPid, stopProcess, waitFor } from './processes.js';
import { which } from './system.js';

export function localRedisUrl(): string {
  return `redis://127.0.0.1:${stackPorts.redis}`;
}

/** A bare RESP PING, so the stack scripts need no Redis client library. */
export function pingRedis(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, host, () => socket.write('PING\r\n'));
  });
}

/**
 * Starts redis-server under .data/redis or reuses a running one. Append-only persistence and
 * `noeviction` because queued jobs must never be dropped to make room.
 */
export async function startLocalRedis(): Promise<{ url: string; started: boolean }> {
  const url = localRedisUrl();
  if (await pingRedis('127.0.0.1', stackPorts.redis)) return { url, started: false };
  const server = which('redis-server');
  if (!server) {
    throw new Error(
      'redis-server not found: install the Debian package "redis-server" or set REDIS_URL',
    );
  }
  mkdirSync(stackPaths.redis, { recursive: true });
  mkdirSync(stackPaths.logs, { recursive: true });
  mkdirSync(stackPaths.run, { recursive: true });
  execFileSync(server, [
    '--port',
    String(stackPorts.redis),
    '--bind',
    '127.0.0.1',
    '--dir',
    stackPaths.redis,
    '--appendonly',
    'yes',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'yes',
    '--pidfile',
    pidFile('redis'),
    '--logfile',
    logFile('redis'),
  ]);
  await waitFor('Redis', () => pingRedis('127.0.0.1', stackPorts.redis), { log: logFile('redis') });
  return { url, started: true };
}

export async function stopLocalRedis(): Promise<boolean> {
  if (runningPid('redis') === undefined) return false;
  return stopProcess('redis');
}
