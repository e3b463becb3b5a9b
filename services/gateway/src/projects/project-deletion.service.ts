import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { PrismaClient, SqlPool } from '@memtrail/db';
import { createRedisConnection, QueueNames, type ProjectPurgeJob } from '@memtrail/queue';
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { GatewayConfig } from '../config.js';

/** The gateway's own queue: Postgres rows of deleted projects too large to delete in-request. */
const BATCH = 200;
const jobOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * 3600 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/**
 * Deleting a project: first, in one transaction, it is marked deleted (it vanishes for every user
 * at once) and its API keys are revoked (uploads stop at once). Then its rows go: inline for small
 * projects, else by a background job in batches, so no request or transaction holds locks on
 * a long history's rows. The ClickHouse rows are purged by whoever consumes
 * QueueNames.projectClickHousePurges (the ingest worker, which owns ClickHouse writes).
 */
@Injectable()
export class ProjectDeletionService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ProjectDeletion');
  private readonly connection: Redis;
  private readonly postgresQueue: Queue<ProjectPurgeJob>;
  private readonly clickhouseQueue: Queue<ProjectPurgeJob>;
  private worker?: Worker<ProjectPurgeJob>;
  private workerConnection?: Redis;

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {
    this.connection = createRedisConnection(config.REDIS_URL);
    const options = {
      connection: this.connection,
      prefix: config.QUEUE_PREFIX,
      defaultJobOptions: jobOptions,
    };
    this.postgresQueue = new Queue(QueueNames.projectPostgresPurges, options);
    this.clickhouseQueue = new Queue(QueueNames.projectClickHousePurges, options);
  }

  onModuleInit(): void {
    // Blocking reads need a connection of their own.
    this.workerConnection = createRedisConnection(this.config.REDIS_URL);
    this.worker = new Worker<ProjectPurgeJob>(
      QueueNames.projectPostgresPurges,
      async (job) => this.purgePostgres(job.data.projectId),
      {
        connection: this.workerConnection,
        prefix: this.config.QUEUE_PREFIX,
        concurrency: 1,
      },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.error(`purging project ${job?.data.projectId} failed: ${error.message}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([
      this.worker?.close(),
      this.postgresQueue.close(),
      this.clickhouseQueue.close(),
    ]);
    // BullMQ leaves connections it was given open.
    this.connection.disconnect();
    this.workerConnection?.disconnect();
  }

  /** Returns true when the rows are left to the background job. */
  async delete(projectId: string): Promise<boolean> {
    const reports = await this.prisma.$transaction(async (tx) => {
      await tx.project.update({ where: { id: projectId }, data: { deletedAt: new Date() } });
      await tx.apiKey.updateMany({
        where: { projectId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      return tx.report.count({ where: { target: { projectId } } });
    });
    const job = { projectId };
    // Job ids make a repeated delete (a retry of the request) one job.
    await this.clickhouseQueue.add('purge', job, { jobId: `project-${projectId}` });
    if (reports > this.config.PROJECT_DELETE_SYNC_MAX_REPORTS) {
      await this.postgresQueue.add('purge', job, { jobId: `project-${projectId}` });
      return true;
    }
    try {
      await this.purgePostgres(projectId);
      return false;
    } catch (error) {
      // The project is already gone for its users; the job finishes what this request could not.
      this.logger.warn(
        `deleting project ${projectId} inline failed, queued instead: ${String(error)}`,
      );
      await this.postgresQueue.add('purge', job, { jobId: `project-${projectId}` });
      return true;
    }
  }

  /**
   * Deletes reports (with their versions and block events) in batches, then the targets'
   * symbol blocks in batches, then the project (its other rows go with it by cascade).
   */
  async purgePostgres(projectId: string): Promise<void> {
    for (;;) {
      const batch = await this.prisma.report.findMany({
        where: { target: { projectId } },
        select: { id: true },
        take: BATCH,
      });
      if (batch.length === 0) break;
      await this.prisma.report.deleteMany({ where: { id: { in: batch.map((r) => r.id) } } });
    }
    // A block weighs about a kilobyte; a long history holds tens of thousands per target.
    while (
      ((
        await this.sql.query(
          `DELETE FROM symbol_blocks WHERE (target_id, hash) IN (
             SELECT target_id, hash FROM symbol_blocks
             WHERE target_id IN (SELECT id FROM targets WHERE project_id = $1::uuid)
             LIMIT $2)`,
          [projectId, BATCH * 10],
        )
      ).rowCount ?? 0) > 0
    );
    await this.prisma.project.deleteMany({ where: { id: projectId } });
  }
}
