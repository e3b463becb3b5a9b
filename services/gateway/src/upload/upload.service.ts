import { Inject, Injectable, Logger } from '@nestjs/common';
import { RegionPlan, type UploadResponseData } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { ServiceMetrics } from '@memtrail/metrics';
import { enqueueReport, type ReportsQueue } from '@memtrail/queue';
import { GatewayConfig } from '../config.js';
import type { Uploader } from './auth/uploader.js';
import { evaluateBudgets } from '../ci-summary/budget-alerts.js';
import { changesAgainstParent } from '../ci-summary/changes.js';
import { presentAlerts, presentChanges, shownRegions } from '../ci-summary/region-view.js';
import { REPORTS_QUEUE } from './reports-queue.provider.js';
import { ReportStore, type StoredUpload } from './report-store.js';
import { comparisonUrl } from '../ci-summary/urls.js';
import { DecodePool } from './decode/decode-pool.js';
import type { RawUpload } from './decode/decode-upload.js';
import type { ValidUpload } from './validate-upload.js';

/**
 * Accepts one upload: decodes and checks it on a decode thread, lets the uploader decide what
 * it may do (project, replacing, new targets), stores the report's version and new
 * blocks with its totals in one transaction, then enqueues ingestion. The answer (changes, budget
 * alerts) comes from the stored totals, so it never waits for ClickHouse; a failed enqueue is
 * recovered by the worker's sweeper. Each step is timed into `memtrail_upload_phase_seconds`.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ReportStore) private readonly reports: ReportStore,
    @Inject(DecodePool) private readonly decoder: DecodePool,
    @Inject(REPORTS_QUEUE) private readonly queue: ReportsQueue,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  /** Times one step of an accepted upload (a refused one is not timed). */
  private async timed<T>(phase: 'store' | 'answer', work: () => Promise<T>): Promise<T> {
    const stop = this.metrics.uploadPhaseDuration.startTimer({ phase });
    const result = await work();
    stop();
    return result;
  }

  async accept(uploader: Uploader, raw: RawUpload): Promise<UploadResponseData> {
    const decoded = await this.decoder.decode(raw);
    const { projectId, upload, policy } = await uploader.authorize(decoded.upload);
    const stored = await this.timed('store', () =>
      this.reports.store(projectId, { ...decoded, upload }, policy),
    );
    return this.timed('answer', async () => {
      const plan = RegionPlan.of(stored.regionConfig);
      // Independent of each other: the changes never wait for Redis.
      const [, changes] = await Promise.all([
        this.enqueue(stored),
        changesAgainstParent(
          this.sql,
          {
            plan,
            projectId,
            targetId: stored.targetId,
            commitSha: upload.commitSha,
            parentSha: upload.parentSha,
            totals: stored.totals,
            parentTotals: stored.parentTotals,
          },
          this.config.UPLOAD_SYMBOL_CHANGES,
          this.logger,
        ),
      ]);
      return this.response(projectId, upload, stored, plan, changes);
    });
  }

  private async enqueue(stored: StoredUpload): Promise<void> {
    try {
      await enqueueReport(this.queue, { reportId: stored.reportId, version: stored.version });
    } catch (error) {
      // The report is safe in Postgres and still pending: the sweeper enqueues it later.
      this.logger.warn(
        `report ${stored.reportId} stored but not enqueued: ${(error as Error).message}`,
      );
    }
  }

  /** The answer shows regions as the target's region configuration does (region-view.ts). */
  private response(
    projectId: string,
    upload: ValidUpload,
    stored: StoredUpload,
    plan: RegionPlan,
    changes: Pick<UploadResponseData, 'changes' | 'changes_summary'>,
  ): UploadResponseData {
    const regions = shownRegions(plan, stored.totals);
    const alerts = presentAlerts(plan, evaluateBudgets(stored.budgets, regions, upload.branch));
    return {
      project_id: projectId,
      target_name: upload.targetName,
      commit_sha: upload.commitSha,
      report_id: stored.reportId,
      parent_sha: upload.parentSha,
      comparison_url: comparisonUrl(
        this.config.CORE_URL,
        projectId,
        upload.targetName,
        upload.parentSha,
        upload.commitSha,
      ),
      is_overwritten: stored.isOverwritten,
      ...presentChanges(plan, regions, changes),
      alerts: { budgets: alerts },
    };
  }
}
