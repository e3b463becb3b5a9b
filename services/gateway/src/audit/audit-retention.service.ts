import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { SqlPool } from '@memtrail/db';
import { GatewayConfig } from '../config.js';

const SWEEP_EVERY_MS = 3600_000;
const BATCH = 5000;

/**
 * Deletes audit events older than their organisation's retention (AUDIT_RETENTION_DAYS unless
 * the organisation sets its own), hourly and in bounded batches. Every replica sweeps; the
 * deletes are idempotent, so that costs nothing but a cheap indexed query.
 */
@Injectable()
export class AuditRetentionService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.logger.error(`deleting expired audit events failed: ${String(error)}`),
      );
    }, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Returns how many events were deleted. */
  async sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const { rowCount } = await this.sql.query(
        `DELETE FROM audit_events WHERE id IN (
           SELECT e.id FROM audit_events e JOIN organizations o ON o.id = e.organization_id
           WHERE e.created_at < now() - make_interval(days => COALESCE(o.audit_retention_days, $1))
           LIMIT $2)`,
        [this.config.AUDIT_RETENTION_DAYS, BATCH],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < BATCH) return total;
    }
  }
}
