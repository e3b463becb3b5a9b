/**
 * Payload of a `reports` job. The job carries only a reference: the report itself is stored in
 * Postgres before the job is enqueued. Fields added later must be optional so that workers and
 * gateways of different versions can run side by side during a rolling upgrade.
 */
export interface IngestReportJob {
  reportId: string;
  /** The report's version when enqueued; a re-upload bumps it, giving the job a new id. */
  version?: number;
  /** Request id of the upload, so the worker's log lines for this job can be found by it. */
  requestId?: string;
}

/**
 * Job ids make enqueueing idempotent: the same report version enqueued twice (a retry, or the
 * sweeper racing the gateway) is one job. BullMQ forbids ':' in custom ids.
 */
export function ingestJobId(job: IngestReportJob): string {
  return `report-${job.reportId}-v${job.version ?? 0}`;
}

/** A deleted project whose rows are removed in the background; job id `project-<projectId>`. */
export interface ProjectPurgeJob {
  projectId: string;
}
