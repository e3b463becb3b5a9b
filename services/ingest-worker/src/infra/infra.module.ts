import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ClickHouseClient, createClickHouse } from '@memtrail/clickhouse';
import { createPrismaClient, createSqlPool, PrismaClient, SqlPool } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import { closeAll } from '@memtrail/logging';
import { WorkerConfig } from '../config.js';

@Injectable()
class ConnectionCloser implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await closeAll(
      {
        postgres: () => this.prisma.$disconnect(),
        'postgres pool': () => this.sql.end(),
        clickhouse: () => this.clickhouse.close(),
      },
      this.logger,
    );
  }
}

/** Postgres (Prisma, and plain SQL for the per-job statements) and ClickHouse (where their rows go), injectable by type. */
@Global()
@Module({})
export class InfraModule {
  static register(config: WorkerConfig): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: WorkerConfig, useValue: config },
        { provide: ServiceMetrics, useValue: new ServiceMetrics('ingest-worker') },
        { provide: PrismaClient, useFactory: () => createPrismaClient(config.DATABASE_URL) },
        { provide: SqlPool, useFactory: () => createSqlPool(config.DATABASE_URL) },
        {
          provide: ClickHouseClient,
          useFactory: () =>
            createClickHouse({ url: config.CLICKHOUSE_URL, database: config.CLICKHOUSE_DATABASE }),
        },
        ConnectionCloser,
      ],
      exports: [WorkerConfig, PrismaClient, SqlPool, ClickHouseClient, ServiceMetrics],
    };
  }
}
