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
import { ServiceMetrics } from '@memtrail/metrics';
import { closeAll } from '@memtrail/logging';
import { WorkerConfig } from '../config.js';

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

/** Postgres (plain SQL: every statement runs per job, see SqlPool) and ClickHouse (where the blocks go), injectable by type. */
@Global()
@Module({})
export class InfraModule {
  static register(config: WorkerConfig): DynamicModule {
    return {
      module: InfraModule,
      providers: [
        { provide: WorkerConfig, useValue: config },
        { provide: ServiceMetrics, useValue: new ServiceMetrics('ingest-worker') },
        { provide: SqlPool, useFactory: () => createSqlPool(config.DATABASE_URL) },
        {
          provide: ClickHouseClient,
          useFactory: () =>
            createClickHouse({ url: config.CLICKHOUSE_URL, database: config.CLICKHOUSE_DATABASE }),
        },
        ConnectionCloser,
      ],
      exports: [WorkerConfig, SqlPool, ClickHouseClient, ServiceMetrics],
    };
  }
}
