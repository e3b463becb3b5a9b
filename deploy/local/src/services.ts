import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { logFile, repoRoot } from './paths.js';
import { runningPid, spawnDetached, startedAt, stopProcess, waitFor } from './processes.js';

/** The three Node services in start order: the gateway's readiness needs the query service. */
export const SERVICES = ['query', 'ingest-worker', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const entry = (service: ServiceName) => join(repoRoot, 'services', service, 'dist', 'main.js');

export type ServiceState = 'started' | 'reused' | 'restarted';

/**
 * Starts a service unless it is already running the current build. A process older than its
 * build output is restarted, so `npm run up` after a change never leaves stale code serving.
 */
export async function ensureService(
  service: ServiceName,
  env: NodeJS.ProcessEnv,
): Promise<ServiceState> {
  const main = entry(service);
  if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
  let state: ServiceState = 'started';
  if (runningPid(service) !== undefined) {
    if (startedAt(service) >= statSync(main).mtimeMs) return 'reused';
    await stopProcess(service);
    state = 'restarted';
  }
  spawnDetached({
    name: service,
    command: process.execPath,
    args: ['--enable-source-maps', main],
    env,
    cwd: repoRoot,
  });
  return state;
}

export async function stopServices(): Promise<string[]> {
  const stopped: string[] = [];
  for (const service of [...SERVICES].reverse()) {
    if (await stopProcess(service)) stopped.push(service);
  }
  return stopped;
}

export async function waitForGateway(baseUrl: string): Promise<void> {
  await waitFor(
    `gateway readiness at ${baseUrl}/readyz`,
    async () => (await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(3000) })).ok,
    { timeoutMs: 90_000, log: logFile('gateway') },
  );
}
