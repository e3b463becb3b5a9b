import { join } from 'node:path';
import { logFile, repoRoot, stackPaths } from './paths.js';
import { stackPorts } from './ports.js';
import { runningPid, spawnDetached, stopProcess, waitFor } from './processes.js';

export function localClickHouseUrl(): string {
  return `http://127.0.0.1:${stackPorts.clickhouse}`;
}

export async function pingHttp(url: string): Promise<boolean> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return response.ok;
}

/** Starts the embedded ClickHouse (packages/embedded-clickhouse) under .data/clickhouse, or reuses it. */
export async function startLocalClickHouse(): Promise<{ url: string; started: boolean }> {
  const url = localClickHouseUrl();
  if (await pingHttp(`${url}/ping`).catch(() => false)) return { url, started: false };
  spawnDetached({
    name: 'clickhouse',
    command: process.execPath,
    args: [
      join(repoRoot, 'packages/embedded-clickhouse/dist/bin.js'),
      '--data-dir',
      stackPaths.clickhouse,
      '--port',
      String(stackPorts.clickhouse),
      '--host',
      '127.0.0.1',
    ],
    // Inserts and merges; reads share its priority, acknowledging uploads does not.
    background: true,
  });
  await waitFor('ClickHouse (embedded)', () => pingHttp(`${url}/ping`), {
    log: logFile('clickhouse'),
  });
  return { url, started: true };
}

export async function stopLocalClickHouse(): Promise<boolean> {
  if (runningPid('clickhouse') === undefined) return false;
  return stopProcess('clickhouse', 30_000);
}
