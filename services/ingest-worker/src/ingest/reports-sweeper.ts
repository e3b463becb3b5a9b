import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';
import { PrismaClient } from '@memtrail/db';
import {
  createRedisConnection,
  createReportsQueue,
  enqueueReport,
  type ReportsQueue,
} from '@memtrail/queue';
import { WorkerConfig } from '../config.js';

/**
 * Re-enqueues reports still pending long after their upload: their job was lost (Redis flushed
 * or down when the gateway enqueued). Job ids are derived from report and version, so a report
 * whose job still exists is not enqueued twice. Every worker runs it; that is harmless.
 */
@Injectable()
export class ReportsSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ReportsSweeper.name);
  private timer?: NodeJS.Timeout;
  private connection?: Redis;
  private queue?: ReportsQueue;
  private running?: Promise<number>;

  constructor(
    @Inject(WorkerConfig) private readonly config: WorkerConfig,
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.SWEEP_INTERVAL_MS === 0) return;
    this.timer = setInterval(() => void this.sweepOnce(), this.config.SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  /** One pass; returns how many reports were handed to the queue. */
  sweepOnce(): Promise<number> {
    this.running ??= this.sweep()
      .catch((error: Error) => {
        this.logger.error(`sweep failed: ${error.message}`);
        return 0;
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(): Promise<number> {
    const before = new Date(Date.now() - this.config.SWEEP_AFTER_MS);
    const pending = await this.prisma.report.findMany({
      where: { status: 'pending', updatedAt: { lt: before } },
      select: { id: true, version: true },
      orderBy: { updatedAt: 'asc' },
      take: 1000,
    });
    if (pending.length === 0) return 0;
    const queue = this.reportsQueue();
    for (const report of pending)
      await enqueueReport(queue, { reportId: report.id, version: report.version });
    this.logger.log(`re-enqueued ${pending.length} pending report(s)`);
    return pending.length;
  }

  private reportsQueue(): ReportsQueue {
    if (!this.queue) {
      this.connection = createRedisConnection(this.config.REDIS_URL);
      this.queue = createReportsQueue({
        connection: this.connection,
        prefix: this.config.QUEUE_PREFIX,
      });
    }
    return this.queue;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.queue?.close();
    await this.connection?.quit();
  }
}
