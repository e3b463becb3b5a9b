import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisConnection, QueueNames, type IngestReportJob } from '@memtrail/queue';
import { WorkerConfig } from '../config.js';
import { IngestReportService } from './ingest-report.service.js';

/**
 * Runs a BullMQ worker on the `reports` queue for the life of the process. A job that throws is
 * retried with backoff by BullMQ (see reportJobOptions); the error reaches the job's record.
 */
@Injectable()
export class ReportsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReportsConsumer.name);
  private worker?: Worker<IngestReportJob>;
  private connection?: Redis;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    @Inject(IngestReportService) private readonly ingest: IngestReportService,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.REDIS_URL);
    this.worker = new Worker<IngestReportJob>(
      QueueNames.reports,
      (job: Job<IngestReportJob>) => this.ingest.ingest(job.data),
      {
        connection: this.connection,
        prefix: this.config.QUEUE_PREFIX,
        concurrency: this.config.WORKER_CONCURRENCY,
      },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.error(`job ${job?.id} (report ${job?.data.reportId}) failed: ${error.message}`),
    );
    this.worker.on('error', (error) => this.logger.error(`worker error: ${error.message}`));
    this.logger.log(
      `consuming queue "${QueueNames.reports}" with concurrency ${this.config.WORKER_CONCURRENCY}`,
    );
  }

  /** Lets running jobs finish, then closes the connection (BullMQ leaves a passed-in one open). */
  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit();
  }
}
