import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './manifests.js';
import { checkServiceEnv, SERVICE_CONFIGS, type ServiceName } from './service-configs.js';

interface ComposeService {
  image?: string;
  build?: { target?: string };
  command?: string[];
  environment?: Record<string, string | number>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  cpu_shares?: number;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const file = join(repoRoot, 'docker-compose.yml');

/** A compose client if the machine has one: the Docker CLI plugin or Debian's docker-compose. */
function composeClient(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    const probe = spawnSync(command[0]!, [...command.slice(1), 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return command;
  }
  return undefined;
}

/** `${NAME}`, `${NAME:-default}` and `${NAME:?error}` as compose interpolates them from `env`. */
function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
      (_m, name: string, kind?: string, word?: string) => {
        if (env[name]) return env[name];
        if (kind === '?') throw new Error(`required variable ${name} is missing a value: ${word}`);
        return kind === '-' ? word! : '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  }
  return value;
}

/**
 * The compose file as compose sees it with `env` (else a clean one): rendered by
 * `<client> config` when a client is installed (that also proves the file is valid for it),
 * else parsed here with merge keys and defaults.
 */
function loadCompose(extra: Record<string, string> = {}): {
  compose: ComposeFile;
  renderedBy: string;
} {
  const client = composeClient();
  // A clean environment: the defaults written in the file are what is checked.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra };
  if (client) {
    const result = spawnSync(client[0]!, [...client.slice(1), '-f', file, 'config'], {
      encoding: 'utf8',
      env,
    });
    if (result.status !== 0)
      throw new Error(`${client.join(' ')} config failed:\n${result.stderr}`);
    return { compose: parse(result.stdout) as ComposeFile, renderedBy: client.join(' ') };
  }
  const raw = parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeFile;
  return { compose: interpolate(raw, env) as ComposeFile, renderedBy: 'yaml' };
}

// What an operator provides: the variables without a default.
const { compose, renderedBy } = loadCompose({
  JWT_SECRET: randomBytes(32).toString('hex'),
  QUERY_SECRET: randomBytes(32).toString('hex'),
});
const envOf = (service: string) =>
  Object.fromEntries(
    Object.entries(compose.services[service]?.environment ?? {}).map(([k, v]) => [k, String(v)]),
  );

describe(`docker-compose.yml (rendered by ${renderedBy})`, () => {
  it('has the stores, the migrator and every service', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['clickhouse', 'gateway', 'ingest-worker', 'migrate', 'postgres', 'query', 'redis'].sort(),
    );
  });

  it.each(Object.keys(SERVICE_CONFIGS) as ServiceName[])(
    'gives %s every variable its config schema requires, with valid values',
    (service) => {
      const config = checkServiceEnv(service, envOf(service));
      expect(config['METRICS_PORT']).toBe(9464);
      expect(compose.services[service]!.command).toEqual([service]);
      expect(compose.services[service]!.build?.target).toBe(service);
    },
  );

  it('refuses to start without its secrets instead of using public defaults', () => {
    const secret = randomBytes(32).toString('hex');
    expect(() => loadCompose({ QUERY_SECRET: secret })).toThrow(/JWT_SECRET/);
    expect(() => loadCompose({ JWT_SECRET: secret })).toThrow(/QUERY_SECRET/);
    expect(readFileSync(file, 'utf8')).not.toMatch(/(JWT|QUERY)_SECRET:-/);
    expect(envOf('gateway')['QUERY_SECRET']).toBe(envOf('query')['QUERY_SECRET']);
  });

  it('starts services only after the one-shot migrator succeeded', () => {
    expect(compose.services['migrate']!.command).toEqual(['migrate']);
    expect(compose.services['migrate']!.build?.target).toBe('migrator');
    for (const service of Object.keys(SERVICE_CONFIGS)) {
      expect(compose.services[service]!.depends_on?.['migrate']?.condition).toBe(
        'service_completed_successfully',
      );
    }
    const migrateEnv = envOf('migrate');
    for (const variable of ['DATABASE_URL', 'CLICKHOUSE_URL', 'CLICKHOUSE_TOPOLOGY']) {
      expect(migrateEnv[variable]).toBeTruthy();
    }
  });

  it('health-checks every long-running container and keeps data in named volumes', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (name === 'migrate') continue;
      expect({ name, healthcheck: (service.healthcheck?.test.length ?? 0) > 0 }).toEqual({
        name,
        healthcheck: true,
      });
    }
    const volumes = Object.keys(compose.volumes ?? {});
    expect(volumes.some((v) => v.endsWith('postgres-data'))).toBe(true);
    expect(volumes.some((v) => v.endsWith('clickhouse-data'))).toBe(true);
    expect(volumes.some((v) => v.endsWith('redis-data'))).toBe(true);
  });

  it('runs Redis with an append-only file and noeviction', () => {
    const command = compose.services['redis']!.command!.join(' ');
    expect(command).toContain('--appendonly yes');
    expect(command).toContain('--maxmemory-policy noeviction');
  });

  it('gives ingestion a lower CPU weight than the services that answer', () => {
    const weight = (service: string) => Number(compose.services[service]!.cpu_shares ?? 1024);
    for (const background of ['ingest-worker', 'clickhouse']) {
      for (const foreground of ['gateway', 'query', 'postgres', 'redis']) {
        expect(weight(background)).toBeLessThan(weight(foreground));
      }
    }
  });
});
