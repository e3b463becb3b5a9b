import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DelayedError, RateLimitError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { SqlPool } from '@memtrail/db';
import { acceptRequestId, runWithRequestId } from '@memtrail/logging';
import { ServiceMetrics } from '@memtrail/metrics';
import { createRedisConnection, QueueNames, type IngestReportJob } from '@memtrail/queue';
import { WorkerConfig } from '../config.js';
import { IngestReportService, ParentNotIngestedError } from './ingest-report.service.js';
import { isStoreUnreachable } from './outage.js';

/**
 * Runs a BullMQ worker on the `reports` queue for the life of the process. A job that throws
 * is retried with backoff (reportJobOptions); once it has no attempts left, or failed for good,
 * its report is marked failed with the reason, and the job stays in the failed set where an
 * operator can retry it.
 */
@Injectable()
export class ReportsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReportsConsumer.name);
  private worker?: Worker<IngestReportJob>;
  private connection?: Redis;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    @Inject(IngestReportService) private readonly ingest: IngestReportService,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.REDIS_URL);
    this.worker = new Worker<IngestReportJob>(
      QueueNames.reports,
      // Each attempt is timed and logs under the upload's request id (or the job's id).
      (job: Job<IngestReportJob>, token?: string) =>
        runWithRequestId(acceptRequestId(job.data.requestId ?? job.id), () =>
          this.metrics.time(
            this.metrics.jobDuration,
            { queue: QueueNames.reports },
            () => this.process(job, token),
            jobOutcome,
          ),
        ),
      {
        connection: this.connection,
        prefix: this.config.QUEUE_PREFIX,
        concurrency: this.config.WORKER_CONCURRENCY,
        // A worker that dies mid-job loses its lock after this long; the job then runs again
        // once a check for stalled jobs finds it, and checks come every quarter of that.
        lockDuration: this.config.WORKER_LOCK_MS,
        stalledInterval: Math.max(1000, Math.round(this.config.WORKER_LOCK_MS / 4)),
      },
    );
    this.worker.on('failed', (job, error) => {
      if (!job) return;
      void this.onFailed(job, error).catch((e: Error) =>
        this.logger.error(
          `could not record the failure of report ${job.data.reportId}: ${e.message}`,
        ),
      );
    });
    this.worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    this.logger.log(
      `consuming queue "${QueueNames.reports}" with concurrency ${this.config.WORKER_CONCURRENCY}`,
    );
  }

  /**
   * While Postgres is unreachable the whole worker pauses and the job goes back to
   * the queue without using up an attempt: an outage must not turn reports into failures. An
   * identical build whose parent is still on its way waits the same way, however long the
   * backlog ahead of the parent (a parent that failed fails it at once).
   */
  private async process(job: Job<IngestReportJob>, token?: string) {
    try {
      return await this.ingest.ingest(job.data);
    } catch (error) {
      if (error instanceof ParentNotIngestedError) {
        await job.moveToDelayed(Date.now() + this.config.WORKER_PARENT_WAIT_MS, token);
        throw new DelayedError(error.message);
      }
      if (!isStoreUnreachable(error) || !this.worker) throw error;
      this.logger.warn(
        `report ${job.data.reportId}: a store is unreachable (${(error as Error).message}); ` +
          `pausing ${this.config.WORKER_OUTAGE_PAUSE_MS} ms`,
      );
      await this.worker.rateLimit(this.config.WORKER_OUTAGE_PAUSE_MS);
      throw Worker.RateLimitError();
    }
  }

  private async onFailed(job: Job<IngestReportJob>, error: Error): Promise<void> {
    const final =
      error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger.error(
      `job ${job.id} (report ${job.data.reportId} v${job.data.version ?? '?'}) attempt ${job.attemptsMade} failed` +
        `${final ? ' for good' : ''}: ${error.message}`,
    );
    if (!final) return;
    this.metrics.errors.inc({ kind: 'job_failed' });
    await this.sql.query(
      `UPDATE reports SET status = 'failed', last_error = $3, updated_at = now()
       WHERE id = $1 AND ($2::int IS NULL OR version = $2)`,
      [job.data.reportId, job.data.version ?? null, error.message.slice(0, 2000)],
    );
  }

  /** Lets running jobs finish, then closes the connection (BullMQ leaves a passed-in one open). */
  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit();
  }
}

/** How a job attempt that threw ended: waiting for a parent or an outage is not a failure. */
function jobOutcome(error: unknown): string {
  if (error instanceof DelayedError) return 'delayed';
  if (error instanceof RateLimitError) return 'paused';
  return 'error';
}
