import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { logFile, repoRoot } from './paths.js';
import { runningPid, spawnDetached, startedAt, stopProcess, waitFor } from './processes.js';

/** The three Node services in start order: the gateway's readiness needs the query service. */
export const SERVICES = ['query', 'ingest-worker', 'gateway'] as const;
export type ServiceName = (typeof SERVICES)[number];

const entry = (service: ServiceName) => join(repoRoot, 'services', service, 'dist', 'main.js');

/**
 * Services start through the container images' entrypoint, so every `npm run up` and CI run
 * exercises the images' start commands.
 */
export const ENTRYPOINT = join(repoRoot, 'deploy', 'docker', 'entrypoint.sh');

/** Side ports for /metrics, /healthz and /readyz: the gateway's port + 10, 11, 12. */
export const metricsPort = (service: ServiceName, gatewayPort: number) =>
  gatewayPort + 10 + SERVICES.indexOf(service);

export type ServiceState = 'started' | 'reused' | 'restarted';

/** Newest modification time of the JavaScript files under `dir` (0 when it does not exist). */
function newestBuild(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.js')) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * When a service's code last changed: its own build output and that of every workspace package
 * (tsc rewrites only the files whose output changed, so main.js alone would miss most edits).
 */
function buildTime(service: ServiceName): number {
  const packages = join(repoRoot, 'packages');
  return Math.max(
    newestBuild(join(repoRoot, 'services', service, 'dist')),
    ...readdirSync(packages).map((name) => newestBuild(join(packages, name, 'dist'))),
  );
}

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
    if (startedAt(service) >= buildTime(service)) return 'reused';
    await stopProcess(service);
    state = 'restarted';
  }
  spawnDetached({
    name: service,
    command: ENTRYPOINT,
    args: [service],
    // The script execs `node`: the one found first on PATH, so put this process's first.
    env: {
      ...env,
      PATH: `${dirname(process.execPath)}:${env.PATH ?? ''}`,
      METRICS_PORT: String(metricsPort(service, Number(env.PORT ?? 5000))),
    },
    cwd: repoRoot,
    background: service === 'ingest-worker',
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
