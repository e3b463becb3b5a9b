import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedisConnection, QueueNames, type ProjectPurgeJob } from '@memtrail/queue';
import { WorkerConfig } from '../config.js';
import { BlockWriter } from './block-writer.js';

/**
 * Removes a deleted project's ClickHouse rows. The gateway deletes the project in Postgres and
 * announces it on this queue; the worker owns ClickHouse writes, so it does the deleting.
 */
@Injectable()
export class ProjectPurgeConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ProjectPurgeConsumer.name);
  private worker?: Worker<ProjectPurgeJob>;
  private connection?: Redis;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    @Inject(BlockWriter) private readonly writer: BlockWriter,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.REDIS_URL);
    this.worker = new Worker<ProjectPurgeJob>(
      QueueNames.projectClickHousePurges,
      async (job) => {
        await this.writer.deleteProject(job.data.projectId);
        this.logger.log(`ClickHouse rows of deleted project ${job.data.projectId} removed`);
      },
      { connection: this.connection, prefix: this.config.QUEUE_PREFIX, concurrency: 1 },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.error(`purge of project ${job?.data.projectId} failed: ${error.message}`),
    );
    this.worker.on('error', (error) => this.logger.error(`purge worker error: ${error.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.connection?.quit();
  }
}
