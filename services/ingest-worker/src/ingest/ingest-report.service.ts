import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { IngestReportJob } from '@memtrail/queue';
import type { StoredRecord, VersionKey } from '@memtrail/db';
import type { VersionRecord } from '@memtrail/symbol-blocks';
import { StoredReports, type StoredReport } from './stored-reports.js';

export type IngestOutcome =
  | {
      status: 'ingested';
      reportId: string;
      version: number;
      /** Blocks the version holds. */
      blocks: number;
    }
  | { status: 'already_ingested'; reportId: string; version: number }
  | { status: 'stale'; reportId: string; version: number; current?: number };

/** Thrown while an identical report's parent has no record yet; the consumer delays the job. */
export class ParentNotIngestedError extends Error {
  constructor(reportId: string, parentSha: string) {
    super(`report ${reportId} is identical to ${parentSha}, which is not stored as a version yet`);
    this.name = 'ParentNotIngestedError';
  }
}

/**
 * Makes a stored report version readable. Postgres holds the version (its record of blocks) and
 * the blocks; the job only names the report. Ingesting records the version's block events
 * against the version it follows (for histories) and marks it ingested, in one statement;
 * readers use the report's `ingestedVersion`, so an overwrite never reads empty. The blocks reach
 * ClickHouse on their own schedule (BlockCopier); until then reads take them from Postgres.
 * Every step can run again: records are cached or re-read, events are written once, and marking
 * checks the version.
 */
@Injectable()
export class IngestReportService {
  private readonly logger = new Logger(IngestReportService.name);

  constructor(@Inject(StoredReports) private readonly reports: StoredReports) {}

  async ingest(job: IngestReportJob): Promise<IngestOutcome> {
    const started = performance.now();
    const outcome = await this.run(job);
    this.logger.log(describe(outcome, Math.round(performance.now() - started)));
    return outcome;
  }

  private async run(job: IngestReportJob): Promise<IngestOutcome> {
    let report = await this.reports.load(job.reportId);
    // Retrying cannot make a deleted report appear: fail the job at once.
    if (!report) throw new UnrecoverableError(`report ${job.reportId} not found`);
    const { id, version } = report;
    if (job.version !== undefined && job.version < version)
      return { status: 'stale', reportId: id, version: job.version, current: version };
    if (report.ingestedVersion === version)
      return { status: 'already_ingested', reportId: id, version };
    if (!report.hasVersion) {
      // Stored before report versions: convert, then ingest like any upload.
      if (!(await this.reports.convertLegacyPayload(report, await this.parentRecord(report)))) {
        throw new UnrecoverableError(
          `report ${id} v${version} has neither a version nor a payload`,
        );
      }
      report = (await this.reports.load(id))!;
      if (report.version !== version) return { status: 'stale', reportId: id, version };
    }
    const record = await this.recordOf(report);
    const base = await this.reports.baseFor(report);
    if (!(await this.reports.markIngested(report, record, base))) {
      return { status: 'stale', reportId: id, version };
    }
    return { status: 'ingested', reportId: id, version, blocks: record.entries.length };
  }

  /** The parent's current record when it has one (converted already, or uploaded since). */
  private async parentRecord(report: StoredReport): Promise<(VersionKey & StoredRecord) | null> {
    const parent = report.parentSha
      ? await this.reports.ofCommit(report.targetId, report.parentSha)
      : null;
    if (!parent?.hasRecord) return null;
    const key = { reportId: parent.id, version: parent.version };
    const stored = await this.reports.record(key);
    return stored && { ...key, ...stored };
  }

  /**
   * The version's record. An identical build's is its parent's current one, copied on its first
   * ingestion; a parent still stored only as a legacy payload (or itself identical and not yet
   * copied) is waited for, a parent that failed for good fails it at once.
   */
  private async recordOf(report: StoredReport): Promise<VersionRecord> {
    const { id, version, targetId, parentSha } = report;
    if (report.hasRecord) {
      const own = await this.reports.record({ reportId: id, version });
      if (own) return own.record;
    }
    if (report.kind !== 'identical')
      throw new UnrecoverableError(`report ${id} v${version} has no record`);
    const parent = parentSha ? await this.reports.ofCommit(targetId, parentSha) : null;
    if (!parent)
      throw new UnrecoverableError(`identical report ${id}: parent ${parentSha} has no report`);
    if (!parent.hasRecord) {
      if (parent.status === 'failed') {
        throw new UnrecoverableError(
          `identical report ${id}: parent ${parentSha} failed to ingest (${parent.lastError ?? 'no reason recorded'}); retry it, then this report`,
        );
      }
      throw new ParentNotIngestedError(id, parentSha!);
    }
    const key = { reportId: parent.id, version: parent.version };
    const stored = await this.reports.record(key);
    if (!stored) throw new ParentNotIngestedError(id, parentSha!);
    await this.reports.copyRecord(report, { ...key, ...stored });
    return stored.record;
  }
}

/** The job's log line: the report, what happened to it, and how long it took. */
function describe(outcome: IngestOutcome, ms: number): string {
  const report = `report ${outcome.reportId} v${outcome.version}`;
  switch (outcome.status) {
    case 'ingested':
      return `${report} ingested in ${ms} ms (${outcome.blocks} blocks)`;
    case 'already_ingested':
      return `${report} was already ingested`;
    case 'stale':
      return `${report} skipped: overwritten by${outcome.current ? ` v${outcome.current}` : ' a newer version'}`;
  }
}
