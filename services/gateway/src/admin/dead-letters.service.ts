import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { FailedIngestion } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import type { ReportsQueue } from '@memtrail/queue';
import { REPORTS_QUEUE } from '../upload/reports-queue.provider.js';

/** The `reports` jobs that failed for good, kept by BullMQ, and retrying them. */
@Injectable()
export class DeadLettersService {
  constructor(
    @Inject(REPORTS_QUEUE) private readonly queue: ReportsQueue,
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
  ) {}

  async list(limit: number): Promise<{ total: number; jobs: FailedIngestion[] }> {
    const [total, jobs] = await Promise.all([
      this.queue.getFailedCount(),
      this.queue.getFailed(0, limit - 1),
    ]);
    return {
      total,
      jobs: jobs.map((job) => ({
        job_id: job.id ?? '',
        report_id: job.data.reportId,
        version: job.data.version ?? null,
        reason: job.failedReason,
        attempts: job.attemptsMade,
        failed_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
      })),
    };
  }

  /** Puts a failed job back in the queue with fresh attempts; its report is pending again. */
  async retry(jobId: string): Promise<void> {
    const job = await this.queue.getJob(jobId);
    if (!job || !(await job.isFailed()))
      throw new NotFoundException(`No failed ingestion job ${jobId}`);
    await this.prisma.report.updateMany({
      where: { id: job.data.reportId, status: 'failed' },
      data: { status: 'pending', lastError: null },
    });
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
  }
}
