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
import { closeAll } from '@memtrail/logging';
import { QueryConfig } from '../config.js';

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

/** Postgres (metadata, report versions) and ClickHouse (symbol blocks), injectable by type. */
@Global()
@Module({})
export class InfraModule {
  static register(config: QueryConfig): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: QueryConfig, useValue: config },
        { provide: PrismaClient, useFactory: () => createPrismaClient(config.DATABASE_URL) },
        // Plain SQL for the reads of report versions and block events (see SqlPool).
        { provide: SqlPool, useFactory: () => createSqlPool(config.DATABASE_URL) },
        {
          provide: ClickHouseClient,
          useFactory: () =>
            createClickHouse({ url: config.CLICKHOUSE_URL, database: config.CLICKHOUSE_DATABASE }),
        },
        ConnectionCloser,
      ],
      exports: [QueryConfig, PrismaClient, SqlPool, ClickHouseClient],
    };
  }
}
