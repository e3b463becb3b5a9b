import { Inject, Injectable, Logger } from '@nestjs/common';
import { gunzipSync } from 'node:zlib';
import { UnrecoverableError } from 'bullmq';
import { ClickHouseClient } from '@memtrail/clickhouse';
import type { UploadEnvelope } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import type { IngestReportJob } from '@memtrail/queue';

export type IngestOutcome =
  | { status: 'ingested'; reportId: string; version: number; regions: number }
  | { status: 'stale'; reportId: string; version: number; current: number };

/**
 * Moves one stored report into ClickHouse. The payload in Postgres is the source of truth; the
 * job only names it. Rows carry the report version and each insert a deduplication token, so a
 * retried job never doubles rows, and a job for a version that was since overwritten does nothing.
 */
@Injectable()
export class IngestReportService {
  private readonly logger = new Logger(IngestReportService.name);

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
  ) {}

  async ingest(job: IngestReportJob): Promise<IngestOutcome> {
    const report = await this.prisma.report.findUnique({
      where: { id: job.reportId },
      include: { target: true, commit: true },
    });
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

    let envelope: UploadEnvelope;
    try {
      envelope = JSON.parse(gunzipSync(report.payload).toString('utf8')) as UploadEnvelope;
    } catch (error) {
      throw new UnrecoverableError(
        `report ${report.id}: stored payload is unreadable: ${(error as Error).message}`,
      );
    }

    const commitTime = (report.commit.committedAt ?? report.createdAt).getTime();
    const layout = envelope.memory_analysis?.memory_layout ?? {};
    const rows = Object.entries(layout).map(([name, region]) => ({
      project_id: report.target.projectId,
      target_id: report.targetId,
      report_id: report.id,
      commit_sha: report.commit.sha,
      commit_time: commitTime,
      name,
      type: region.type ?? 'UNKNOWN',
      address: region.address ?? 0,
      limit_size: region.limit_size ?? 0,
      used_size: region.used_size ?? 0,
      ingest_version: report.version,
    }));
    if (rows.length > 0) {
      await this.clickhouse.insert({
        table: 'regions_v1',
        values: rows,
        format: 'JSONEachRow',
        clickhouse_settings: {
          // Deduplication by token needs synchronous inserts on a real server.
          async_insert: 0,
          insert_deduplication_token: `${report.id}:v${report.version}:regions`,
          date_time_input_format: 'best_effort',
        },
      });
    }

    // Only the version this job ingested is marked: an overwrite that landed meanwhile stays pending.
    await this.prisma.report.updateMany({
      where: { id: report.id, version: report.version },
      data: { status: 'ingested', ingestedAt: new Date(), lastError: null },
    });
    this.logger.log(`report ${report.id} v${report.version} ingested (${rows.length} regions)`);
    return {
      status: 'ingested',
      reportId: report.id,
      version: report.version,
      regions: rows.length,
    };
  }
}
