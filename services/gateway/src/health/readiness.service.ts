import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  measureCheck,
  QueryPatterns,
  type DependencyCheck,
  type QueryPingReply,
  type ReadinessReport,
} from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { Redis } from 'ioredis';
import { firstValueFrom, timeout } from 'rxjs';
import { GatewayConfig } from '../config.js';

@Injectable()
export class ReadinessService {
  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(ClientProxy) private readonly query: ClientProxy,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /**
   * Postgres and Redis are checked directly; ClickHouse is checked by the query service (the
   * gateway never talks to it), whose reply comes back over the same round trip that proves the
   * query service itself is reachable.
   */
  async check(): Promise<ReadinessReport> {
    let reply: QueryPingReply | undefined;
    const [postgres, redis, query] = await Promise.all([
      measureCheck(() => this.sql.query('SELECT 1')),
      measureCheck(async () => {
        const answer = await this.redis.ping();
        if (answer !== 'PONG') throw new Error(`unexpected PING reply ${answer}`);
      }),
      measureCheck(async () => {
        reply = await firstValueFrom(
          this.query
            .send<QueryPingReply>(QueryPatterns.ping, {})
            .pipe(timeout(this.config.QUERY_TIMEOUT_MS)),
        );
      }),
    ]);
    const clickhouse: DependencyCheck = reply
      ? reply.checks.clickhouse
      : { ok: false, latency_ms: 0, error: 'unknown: the query service did not answer' };
    const checks = { postgres, redis, clickhouse, query };
    const ok = Object.values(checks).every((c) => c.ok);
    return { status: ok ? 'ok' : 'error', checks };
  }
}
