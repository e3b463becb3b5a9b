import {
  Global,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { createPrismaClient, createSqlPool, PrismaClient, SqlPool } from '@memtrail/db';
import { createRedisConnection } from '@memtrail/queue';
import { closeAll } from '@memtrail/logging';
import { ServiceMetrics } from '@memtrail/metrics';
import { Redis } from 'ioredis';
import { GatewayConfig } from '../config.js';
import { createQueryClient } from './query-client.js';

/** Closes every connection when Nest shuts down, so SIGTERM never leaves sockets half open. */
@Injectable()
class ConnectionCloser implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(ClientProxy) private readonly query: ClientProxy,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await closeAll(
      {
        postgres: () => this.prisma.$disconnect(),
        'postgres pool': () => this.sql.end(),
        redis: () => this.redis.quit(),
        'query service': () => this.query.close(),
      },
      this.logger,
    );
  }
}

/**
 * The gateway's connections to Postgres (Prisma, and plain SQL for hot paths), Redis and the
 * query service, and the process's metrics, injectable by type.
 */
@Global()
@Module({})
export class InfraModule {
  static register(config: GatewayConfig, metrics: ServiceMetrics): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: GatewayConfig, useValue: config },
        { provide: ServiceMetrics, useValue: metrics },
        { provide: PrismaClient, useFactory: () => createPrismaClient(config.DATABASE_URL) },
        { provide: SqlPool, useFactory: () => createSqlPool(config.DATABASE_URL) },
        { provide: Redis, useFactory: () => createRedisConnection(config.REDIS_URL) },
        {
          provide: ClientProxy,
          useFactory: () =>
            createQueryClient(config.QUERY_HOST, config.QUERY_PORT, config.QUERY_SECRET),
        },
        ConnectionCloser,
      ],
      exports: [GatewayConfig, ServiceMetrics, PrismaClient, SqlPool, Redis, ClientProxy],
    };
  }
}
