import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ClickHouseClient, createClickHouse } from '@memtrail/clickhouse';
import { createPrismaClient, PrismaClient } from '@memtrail/db';
import { instrumentClickHouseInserts, ServiceMetrics } from '@memtrail/metrics';
import { WorkerConfig } from '../config.js';

@Injectable()
class ConnectionCloser implements OnApplicationShutdown {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.prisma.$disconnect(), this.clickhouse.close()]);
  }
}

/** Postgres (the stored reports) and ClickHouse (where their rows go), injectable by type. */
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
        {
          provide: ClickHouseClient,
          inject: [ServiceMetrics],
          useFactory: (metrics: ServiceMetrics) =>
            instrumentClickHouseInserts(
              createClickHouse({
                url: config.CLICKHOUSE_URL,
                database: config.CLICKHOUSE_DATABASE,
              }),
              metrics,
            ),
        },
        ConnectionCloser,
      ],
      exports: [WorkerConfig, PrismaClient, ClickHouseClient, ServiceMetrics],
    };
  }
}
