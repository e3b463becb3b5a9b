import { Inject, Injectable, Logger } from '@nestjs/common';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { UnrecoverableError } from 'bullmq';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import type { IngestReportJob } from '@memtrail/queue';
import { ClickHouseWriter, INGEST_TABLES, type IngestTable } from './clickhouse-writer.js';
import { regionRows, sectionRows, symbolRows, type RowContext } from './rows.js';
import { StoredReports } from './stored-reports.js';

const gunzipAsync = promisify(gunzip);

export type IngestOutcome =
  | { status: 'ingested'; reportId: string; version: number; rows: Record<IngestTable, number> }
  | { status: 'stale'; reportId: string; version: number; current: number };

/** Thrown while an identical report's parent has no rows yet; BullMQ retries with backoff. */
export class ParentNotIngestedError extends Error {
  constructor(reportId: string, parentSha: string) {
    super(`report ${reportId} is identical to ${parentSha}, which is not ingested yet`);
    this.name = 'ParentNotIngestedError';
  }
}

/**
 * Moves one stored report version into ClickHouse. The payload in Postgres is the source of
 * truth; the job only names it. Readers use the report's `ingestedVersion`, which moves only
 * once every row of the new version is written, so an overwrite never reads empty.
 */
@Injectable()
export class IngestReportService {
  private readonly logger = new Logger(IngestReportService.name);

  constructor(
    @Inject(StoredReports) private readonly reports: StoredReports,
    @Inject(ClickHouseWriter) private readonly writer: ClickHouseWriter,
  ) {}

  async ingest(job: IngestReportJob): Promise<IngestOutcome> {
    const started = performance.now();
    const report = await this.reports.load(job.reportId);
    // Retrying cannot make a deleted report appear: fail the job at once.
    if (!report) throw new UnrecoverableError(`report ${job.reportId} not found`);
    if (job.version !== undefined && job.version < report.version) {
      return {
        status: 'stale',
        reportId: report.id,
        version: job.version,
        current: report.version,
      };
    }
    const context: RowContext = {
      project_id: report.projectId,
      target_id: report.targetId,
      report_id: report.id,
      commit_sha: report.commitSha,
      commit_time: report.commitTime.getTime(),
      ingest_version: report.version,
    };

    const rows =
      report.kind === 'identical'
        ? await this.copyParent(report.id, report.targetId, report.parentSha, context)
        : await this.writeReport(report.id, report.payload, context);

    // Only the version this job wrote becomes readable: a newer overwrite stays pending.
    const marked = await this.reports.markIngested(report.id, report.version);
    if (marked && report.ingestedVersion !== null) {
      await this.writer.deleteOlder(report.id, report.version);
    }
    const ms = Math.round(performance.now() - started);
    this.logger.log(
      `report ${report.id} v${report.version} (${report.kind}) ingested in ${ms} ms: ` +
        INGEST_TABLES.map((t) => `${rows[t]} ${t}`).join(', '),
    );
    return { status: 'ingested', reportId: report.id, version: report.version, rows };
  }

  private async writeReport(
    id: string,
    payload: Uint8Array,
    context: RowContext,
  ): Promise<Record<IngestTable, number>> {
    let report: MemoryReport;
    try {
      const envelope = JSON.parse((await gunzipAsync(payload)).toString('utf8')) as UploadEnvelope;
      report = envelope.memory_analysis;
    } catch (error) {
      throw new UnrecoverableError(
        `report ${id}: stored payload is unreadable: ${(error as Error).message}`,
      );
    }
    // A failed build has an empty layout and no symbols: nothing to write, still "ingested".
    report = {
      ...report,
      memory_layout: report.memory_layout ?? {},
      symbols: report.symbols ?? [],
    };
    // The tables are independent and each insert carries its own token: send them together.
    const [regions, sections, symbols] = await Promise.all([
      this.writer.insert('regions_v1', context, regionRows(report)),
      this.writer.insert('sections_v1', context, sectionRows(report)),
      this.writer.insert('symbols_v1', context, symbolRows(report)),
    ]);
    return { regions_v1: regions, sections_v1: sections, symbols_v1: symbols };
  }

  /** An identical build's rows are its parent's, re-keyed to this report and commit. */
  private async copyParent(
    id: string,
    targetId: string,
    parentSha: string | null,
    context: RowContext,
  ): Promise<Record<IngestTable, number>> {
    const parent = parentSha ? await this.reports.ofCommit(targetId, parentSha) : null;
    if (!parent)
      throw new UnrecoverableError(`identical report ${id}: parent ${parentSha} has no report`);
    if (parent.ingestedVersion === null) throw new ParentNotIngestedError(id, parentSha!);
    const rows = {} as Record<IngestTable, number>;
    for (const table of INGEST_TABLES) {
      const parentRows = await this.writer.read(table, parent.id, parent.ingestedVersion);
      rows[table] = await this.writer.insert(table, context, parentRows);
    }
    return rows;
  }
}
