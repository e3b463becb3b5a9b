import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { enqueueReport, type ReportsQueue } from '@memtrail/queue';
import { REPORTS_QUEUE } from './reports-queue.provider.js';
import { ReportStore, type StoredUpload } from './report-store.js';
import type { SplitUpload } from './decode/decode-upload.js';

/**
 * The part of an upload that follows its acknowledgement: stores the report's version and new
 * blocks once the decode thread has split the upload, then enqueues its ingestion. Neither step
 * can lose the upload, whose payload is stored already: should storing the version fail, the
 * worker stores it from the payload; should the enqueue fail, the worker's sweeper enqueues the
 * report later. A stopping gateway finishes the writes it has begun.
 */
@Injectable()
export class VersionWriter implements BeforeApplicationShutdown {
  private readonly logger = new Logger(VersionWriter.name);
  private readonly running = new Set<Promise<void>>();

  constructor(
    @Inject(ReportStore) private readonly reports: ReportStore,
    @Inject(REPORTS_QUEUE) private readonly queue: ReportsQueue,
  ) {}

  /** Resolves once the version is stored (or left to the worker) and the report enqueued. */
  write(stored: StoredUpload, split: Promise<SplitUpload>): Promise<void> {
    const done = this.run(stored, split).finally(() => this.running.delete(done));
    this.running.add(done);
    return done;
  }

  private async run(stored: StoredUpload, split: Promise<SplitUpload>): Promise<void> {
    const report = `report ${stored.reportId} v${stored.version}`;
    try {
      await this.reports.storeVersion(stored, await split);
    } catch (error) {
      this.logger.warn(
        `${report}: version not stored, the worker stores it from the payload: ${(error as Error).message}`,
      );
    }
    try {
      await enqueueReport(this.queue, { reportId: stored.reportId, version: stored.version });
    } catch (error) {
      // The report is safe in Postgres and still pending: the sweeper enqueues it later.
      this.logger.warn(`${report} stored but not enqueued: ${(error as Error).message}`);
    }
  }

  /** Before the decode threads and the queue connection close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.running);
  }
}
