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
import { createSqlPool, SqlPool } from '@memtrail/db';
import { closeAll } from '@memtrail/logging';
import { QueryConfig } from '../config.js';

@Injectable()
class ConnectionCloser implements OnApplicationShutdown {
  private readonly logger = new Logger('Shutdown');

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await closeAll(
      {
        postgres: () => this.sql.end(),
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
        // Every read is on a request's path: plain SQL (see SqlPool), no Prisma client.
        { provide: SqlPool, useFactory: () => createSqlPool(config.DATABASE_URL) },
        {
          provide: ClickHouseClient,
          useFactory: () =>
            createClickHouse({ url: config.CLICKHOUSE_URL, database: config.CLICKHOUSE_DATABASE }),
        },
        ConnectionCloser,
      ],
      exports: [QueryConfig, SqlPool, ClickHouseClient],
    };
  }
}
