import { execFileSync } from 'node:child_process';

export interface BaseStores {
  DATABASE_URL: string;
  REDIS_URL: string;
  CLICKHOUSE_URL: string;
}

export interface ProvidedStores {
  stores: BaseStores;
  source: 'environment' | 'testcontainers' | 'embedded';
  /** Stops what this call started; the embedded stack is left running for the next run. */
  stop: () => Promise<void>;
}

function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The servers integration tests run against, in order of preference: URLs from the environment
 * (CI and `npm test` set them), containers when a Docker daemon is present, otherwise the
 * embedded local stack under .data/ (the same servers `npm run up` runs).
 */
export async function provideBaseStores(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ProvidedStores> {
  if (env.DATABASE_URL && env.REDIS_URL && env.CLICKHOUSE_URL) {
    const stores = {
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      CLICKHOUSE_URL: env.CLICKHOUSE_URL,
    };
    return { stores, source: 'environment', stop: async () => undefined };
  }
  if (dockerAvailable()) {
    const { startContainerStores } = await import('./container-stores.js');
    return { ...(await startContainerStores()), source: 'testcontainers' };
  }
  const { ensureStores } = await import('@memtrail/local-stack');
  const { stores } = await ensureStores(env);
  return { stores, source: 'embedded', stop: async () => undefined };
}
