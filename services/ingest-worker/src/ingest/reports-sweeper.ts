import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { SqlPool } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import {
  createRedisConnection,
  createReportsQueue,
  enqueueReport,
  ingestJobId,
  type ReportsQueue,
} from '@memtrail/queue';
import { WorkerConfig } from '../config.js';

/**
 * Re-enqueues reports still pending long after their upload whose job is gone: Redis was
 * flushed, or down when the gateway enqueued. A report whose job still exists — queued in a
 * backlog, running, retrying, or failed for an operator to retry — is left alone. Job ids are
 * derived from report and version, so no version is ever queued twice. Every worker runs the
 * timer, and one of them sweeps per interval.
 */
/** Pending reports read per query, and pages read per pass at most. */
const SWEEP_PAGE = 1000;
const SWEEP_MAX_PAGES = 100;

@Injectable()
export class ReportsSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReportsSweeper.name);
  private timer?: NodeJS.Timeout;
  private connection?: Redis;
  private queue?: ReportsQueue;
  private running?: Promise<string[]>;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.SWEEP_INTERVAL_MS === 0) return;
    this.timer = setInterval(() => void this.tick(), this.config.SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * The timer's pass. The first worker to claim the interval in Redis sweeps; the others would
   * read the same pages and job states for nothing, which in a backlog of thousands is most of
   * the sweeper's load on Redis. Returns the ids re-enqueued, or undefined when another worker
   * has this interval.
   */
  async tick(): Promise<string[] | undefined> {
    let claimed: string | null;
    try {
      claimed = await this.redis().set(
        `${this.config.QUEUE_PREFIX}:reports-sweeper`,
        String(process.pid),
        'PX',
        this.config.SWEEP_INTERVAL_MS,
        'NX',
      );
    } catch (error) {
      this.logger.error(`sweep skipped: cannot claim it in Redis: ${(error as Error).message}`);
      return undefined;
    }
    return claimed ? this.sweepOnce() : undefined;
  }

  /** One pass; returns the ids of the reports handed to the queue again. */
  sweepOnce(): Promise<string[]> {
    this.running ??= this.sweep()
      .catch((error: Error) => {
        this.logger.error(`sweep failed: ${error.message}`);
        return [];
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<string[]> {
    const before = new Date(Date.now() - this.config.SWEEP_AFTER_MS);
    const requeued: string[] = [];
    // Page on past reports whose job still exists: a backlog of thousands (a reingestion, a
    // burst of uploads) must not hide the lost jobs behind it, nor make them wait for it.
    let cursor: string | undefined;
    for (let page = 0; page < SWEEP_MAX_PAGES; page++) {
      // Uploads in their order among equals (reports marked for reingestion together), so a
      // parent is queued before the identical builds that copy its rows.
      const { rows: pending } = await this.sql.query<{ id: string; version: number }>(
        `SELECT id::text, version FROM reports
         WHERE status = 'pending' AND updated_at < $1
           AND ($2::uuid IS NULL OR (updated_at, created_at, id) >
             (SELECT updated_at, created_at, id FROM reports WHERE id = $2))
         ORDER BY updated_at, created_at, id LIMIT $3`,
        [before, cursor ?? null, SWEEP_PAGE],
      );
      if (pending.length === 0) break;
      const queue = this.reportsQueue();
      const jobs = pending.map((report) => ({ reportId: report.id, version: report.version }));
      // One round trip for the page: ioredis pipelines commands sent without waiting.
      const states = await Promise.all(jobs.map((job) => queue.getJobState(ingestJobId(job))));
      for (const [i, job] of jobs.entries()) {
        if (states[i] !== 'unknown') continue;
        await enqueueReport(queue, job);
        requeued.push(job.reportId);
      }
      if (pending.length < SWEEP_PAGE) break;
      cursor = pending.at(-1)!.id;
    }
    this.metrics.reportsRequeued.inc(requeued.length);
    if (requeued.length > 0)
      this.logger.warn(
        `enqueued ${requeued.length} pending report(s) that had no job in the queue`,
      );
    return requeued;
  }

  private redis(): Redis {
    this.connection ??= createRedisConnection(this.config.REDIS_URL);
    return this.connection;
  }

  private reportsQueue(): ReportsQueue {
    this.queue ??= createReportsQueue({
      connection: this.redis(),
      prefix: this.config.QUEUE_PREFIX,
    });
    return this.queue;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.queue?.close();
    await this.connection?.quit();
  }
}
