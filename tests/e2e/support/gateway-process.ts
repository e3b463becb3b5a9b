import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localSecrets, readStackEnv, stackPorts } from '@memtrail/local-stack';
import { freePort } from '@memtrail/testing';

// A second gateway process beside the running local stack, for end-to-end tests of settings the
// stack's own gateway does not run with (on-premises mode, an analytics key). It shares the
// stack's Postgres, Redis and query service and starts like every service does, through the
// images' entrypoint.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const resultsDir = join(repoRoot, 'tests', 'test-results');
const ENTRYPOINT = join(repoRoot, 'deploy', 'docker', 'entrypoint.sh');

export interface GatewayProcess {
  /** http://127.0.0.1:<port>, serving the built web app and the API. */
  url: string;
  /** Where the process's stdout and stderr go. */
  logFile: string;
  stop(): Promise<void>;
}

/** The stack's store URLs: exported ones first (tests/run-all.sh exports them), else stack.env. */
function stackStores(): { DATABASE_URL: string; REDIS_URL: string } {
  const env = { ...readStackEnv(), ...process.env };
  const { DATABASE_URL, REDIS_URL } = env;
  if (!DATABASE_URL || !REDIS_URL) {
    throw new Error('DATABASE_URL/REDIS_URL are not set and .data/stack.env has none: npm run up');
  }
  return { DATABASE_URL, REDIS_URL };
}

const logTail = (file: string) => readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');

/**
 * Starts a gateway named `name` (its log: tests/test-results/<name>.log) with `env` on top of the
 * stack's settings, and resolves once its /readyz answers 200.
 */
export async function startGatewayProcess(
  name: string,
  env: Record<string, string>,
  { readyTimeoutMs = 20_000 } = {},
): Promise<GatewayProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(resultsDir, { recursive: true });
  const logFile = join(resultsDir, `${name}.log`);
  const log = openSync(logFile, 'w');
  const child = spawn(ENTRYPOINT, ['gateway'], {
    cwd: repoRoot,
    stdio: ['ignore', log, log],
    env: {
      // entrypoint.sh execs the `node` found first on PATH: make it this one.
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      ...stackStores(),
      QUERY_PORT: String(stackPorts.query),
      // The stack's own secrets, as its services got them (tests/run-all.sh may export them).
      JWT_SECRET: process.env.JWT_SECRET || localSecrets().JWT_SECRET,
      QUERY_SECRET: process.env.QUERY_SECRET || localSecrets().QUERY_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      NODE_ENV: 'development',
      // Its own Redis prefix keeps its sign-in rate-limit counters off the stack gateway's, which
      // other specs from the same address share; nothing here enqueues jobs.
      QUEUE_PREFIX: `e2e-${name}-${randomBytes(4).toString('hex')}`,
      ...env,
    },
  });
  closeSync(log);
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = `exit ${code ?? signal}`;
      resolve();
    }),
  );
  // A test runner that dies without afterAll must not leave the gateway behind.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (exit) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };

  const deadline = Date.now() + readyTimeoutMs;
  let readiness = 'no answer';
  for (;;) {
    if (exit) throw new Error(`gateway ${name} ended (${exit}) before ready:\n${logTail(logFile)}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        readiness = `${response.status} ${await response.text()}`;
        return response.ok;
      },
      () => false,
    );
    if (ready) return { url, logFile, stop };
    if (Date.now() > deadline) {
      await stop();
      // /readyz names the dependency that is down (often the stack's query service).
      throw new Error(
        `gateway ${name} not ready at ${url} after ${readyTimeoutMs} ms (/readyz: ${readiness}):\n${logTail(logFile)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
