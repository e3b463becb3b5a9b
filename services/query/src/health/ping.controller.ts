import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { measureCheck, QueryPatterns, type QueryPingReply } from '@memtrail/contracts';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { SqlPool } from '@memtrail/db';

@Controller()
export class PingController {
  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
  ) {}

  /** Proves the gateway → query round trip and reports the stores this service reads. */
  @MessagePattern(QueryPatterns.ping)
  async ping(): Promise<QueryPingReply> {
    const [postgres, clickhouse] = await Promise.all([
      measureCheck(() => this.sql.query('SELECT 1')),
      measureCheck(async () => {
        const result = await this.clickhouse.ping();
        if (!result.success) throw result.error;
      }),
    ]);
    return { service: 'query', time: new Date().toISOString(), checks: { postgres, clickhouse } };
  }
}
