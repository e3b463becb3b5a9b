import { execFileSync } from 'node:child_process';
import type { BaseStores } from './store-urls.js';

export interface ProvidedStores {
  stores: BaseStores;
  source: 'environment' | 'testcontainers';
  /** Stops what this call started. */
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
 * (CI and `npm test` set them; jest.config.js takes those of a running `npm run up` stack),
 * otherwise containers when a Docker daemon is present.
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
  throw new Error(
    'Integration tests need DATABASE_URL, REDIS_URL and CLICKHOUSE_URL, or a Docker daemon: ' +
      'start the local stack with `npm run up` (jest then reads its .data/stack.env) or set the URLs.',
  );
}
