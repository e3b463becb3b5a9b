import type { BaseStores } from './store-urls.js';

/**
 * Real servers in containers, for machines with a Docker daemon. Imported lazily so that
 * machines without Docker never load testcontainers.
 */
export async function startContainerStores(): Promise<{
  stores: BaseStores;
  stop: () => Promise<void>;
}> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [postgres, redis, clickhouse] = await Promise.all([
    new GenericContainer('postgres:16-alpine')
      .withEnvironment({ POSTGRES_PASSWORD: 'memtrail', POSTGRES_DB: 'memtrail' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('redis:7-alpine').withExposedPorts(6379).start(),
    new GenericContainer('clickhouse/clickhouse-server:25.8')
      .withEnvironment({ CLICKHOUSE_SKIP_USER_SETUP: '1' })
      .withExposedPorts(8123)
      .withWaitStrategy(Wait.forHttp('/ping', 8123))
      .start(),
  ]);
  const stores: BaseStores = {
    DATABASE_URL: `postgres://postgres:memtrail@${postgres.getHost()}:${postgres.getMappedPort(5432)}/memtrail`,
    REDIS_URL: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    CLICKHOUSE_URL: `http://${clickhouse.getHost()}:${clickhouse.getMappedPort(8123)}`,
  };
  const stop = async () => {
    await Promise.all([postgres.stop(), redis.stop(), clickhouse.stop()]);
  };
  return { stores, stop };
}
