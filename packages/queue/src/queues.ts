import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';
import { currentRequestId } from '@memtrail/logging';
import { QueueNames } from './names.js';
import { ingestJobId, type IngestReportJob } from './jobs.js';

export interface QueueOptions {
  connection: ConnectionOptions;
  /** Key prefix in Redis; isolates deployments sharing one Redis, and each test file. */
  prefix?: string;
}

export const DEFAULT_QUEUE_PREFIX = 'memtrail';

/** Retries with backoff, and bounded history so Redis does not grow without limit. */
export const reportJobOptions: DefaultJobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export type ReportsQueue = Queue<IngestReportJob, unknown, 'ingest'>;

export function createReportsQueue({
  connection,
  prefix = DEFAULT_QUEUE_PREFIX,
}: QueueOptions): ReportsQueue {
  return new Queue<IngestReportJob, unknown, 'ingest'>(QueueNames.reports, {
    connection,
    prefix,
    defaultJobOptions: reportJobOptions,
  });
}

/**
 * Enqueues one report version; enqueueing the same version again is a no-op. The job carries
 * the request id of the upload being served, if any, for the worker's log lines.
 */
export async function enqueueReport(queue: ReportsQueue, job: IngestReportJob): Promise<string> {
  const requestId = job.requestId ?? currentRequestId();
  const data = requestId ? { ...job, requestId } : job;
  const added = await queue.add('ingest', data, { jobId: ingestJobId(job) });
  if (!added.id) throw new Error(`BullMQ returned no job id for report ${job.reportId}`);
  return added.id;
}
