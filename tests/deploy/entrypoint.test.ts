import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createIsolatedStores, eventually, freePort, type IsolatedStores } from '@memtrail/testing';
import { repoRoot } from './manifests.js';

const ENTRYPOINT = join(repoRoot, 'deploy', 'docker', 'entrypoint.sh');

/**
 * The container images' start command, run here against real stores: the same script and the
 * same built files the images use (deploy/docker/Dockerfile), so a broken entrypoint fails CI.
 */
describe('deploy/docker/entrypoint.sh', () => {
  let stores: IsolatedStores;
  const children: ChildProcess[] = [];
  const output = new Map<string, string>();
  const ports = { gateway: 0, query: 0, gatewayMetrics: 0, queryMetrics: 0, workerMetrics: 0 };
  const querySecret = randomBytes(32).toString('hex');

  const start = (service: string, env: Record<string, string>) => {
    const child = spawn(ENTRYPOINT, [service], {
      env: {
        PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}`,
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        QUEUE_PREFIX: stores.queuePrefix,
        CLICKHOUSE_URL: stores.clickhouseUrl,
        CLICKHOUSE_DATABASE: stores.clickhouseDatabase,
        QUERY_SECRET: querySecret,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    output.set(service, '');
    const collect = (chunk: Buffer) => output.set(service, output.get(service) + chunk.toString());
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    children.push(child);
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
    start('query', {
      QUERY_PORT: String(ports.query),
      METRICS_PORT: String(ports.queryMetrics),
    });
    start('ingest-worker', { METRICS_PORT: String(ports.workerMetrics) });
    start('gateway', {
      JWT_SECRET: randomBytes(32).toString('hex'),
      PORT: String(ports.gateway),
      QUERY_PORT: String(ports.query),
      METRICS_PORT: String(ports.gatewayMetrics),
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(undefined);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    await stores?.cleanup();
  });

  const get = async (port: number, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers,
      signal: AbortSignal.timeout(5000),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  it('starts all three services; the gateway becomes ready through the query service', async () => {
    const probe = () =>
      get(ports.gateway, '/readyz', { 'x-request-id': 'entrypoint-1' }).catch((error: Error) => ({
        status: 0,
        headers: new Headers(),
        text: error.message,
      }));
    const ready = await eventually(probe, (answer) => answer.status === 200, {
      timeoutMs: 60_000,
      intervalMs: 500,
    }).catch((error: Error) => {
      const logs = [...output].map(([service, text]) => `--- ${service}\n${text.slice(-3000)}`);
      throw new Error(`${error.message}\n${logs.join('\n')}`);
    });
    expect(ready.headers.get('x-request-id')).toBe('entrypoint-1');
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ok' });
  }, 90_000);

  it('serves /healthz, /readyz and /metrics on every side port', async () => {
    for (const [service, port] of [
      ['gateway', ports.gatewayMetrics],
      ['query', ports.queryMetrics],
      ['ingest-worker', ports.workerMetrics],
    ] as const) {
      expect(JSON.parse((await get(port, '/healthz')).text)).toMatchObject({
        status: 'ok',
        service,
      });
      expect((await get(port, '/readyz')).status).toBe(200);
      const metrics = await get(port, '/metrics');
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(metrics.text).toContain(`memtrail_process_cpu_seconds_total{service="${service}"}`);
    }
    const gateway = (await get(ports.gatewayMetrics, '/metrics')).text;
    expect(gateway).toMatch(
      /memtrail_http_request_duration_seconds_count\{service="gateway",method="GET",route="\/readyz",status_code="200"\} [1-9]/,
    );
    const query = (await get(ports.queryMetrics, '/metrics')).text;
    expect(query).toMatch(
      /memtrail_rpc_duration_seconds_count\{service="query",pattern="query\.ping",outcome="ok"\} [1-9]/,
    );
    const worker = (await get(ports.workerMetrics, '/metrics')).text;
    expect(worker).toContain(
      'memtrail_queue_jobs{queue="reports",state="waiting",service="ingest-worker"} 0',
    );
    expect(worker).toContain(
      'memtrail_queue_oldest_waiting_job_age_seconds{queue="reports",service="ingest-worker"} 0',
    );
  });

  it('names its commands when given an unknown one', () => {
    const result = spawnSync(ENTRYPOINT, ['web'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'usage: entrypoint.sh gateway|query|ingest-worker|migrate|reingest',
    );
  });

  it('ends the gateway at start-up without JWT_SECRET, naming it, in every NODE_ENV', () => {
    for (const NODE_ENV of ['development', 'production']) {
      const result = spawnSync(ENTRYPOINT, ['gateway'], {
        encoding: 'utf8',
        env: {
          PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}`,
          DATABASE_URL: stores.databaseUrl,
          REDIS_URL: stores.redisUrl,
          NODE_ENV,
        },
        timeout: 60_000,
      });
      expect({ NODE_ENV, status: result.status }).toEqual({ NODE_ENV, status: 1 });
      expect(result.stderr).toContain('JWT_SECRET (unset): JWT_SECRET must be set');
    }
  });

  it('passes reingest its arguments, which it checks before connecting', () => {
    const result = spawnSync(ENTRYPOINT, ['reingest', '--project', 'firmware'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--project must be a project id (a UUID), got "firmware"');
  });

  it('rejects an unknown ClickHouse topology before touching ClickHouse', () => {
    const result = spawnSync(ENTRYPOINT, ['migrate'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: stores.databaseUrl, CLICKHOUSE_TOPOLOGY: 'ring' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("CLICKHOUSE_TOPOLOGY must be single or cluster, got 'ring'");
  });
});
