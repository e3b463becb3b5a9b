import { Inject, Injectable, Logger } from '@nestjs/common';
import { RegionPlan, type UploadResponseData } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { GatewayConfig } from '../config.js';
import type { Uploader } from './auth/uploader.js';
import { evaluateBudgets } from '../ci-summary/budget-alerts.js';
import { changesAgainstParent, symbolChangesWithin } from '../ci-summary/changes.js';
import { presentAlerts, presentChanges, shownRegions } from '../ci-summary/region-view.js';
import { VersionWriter } from './version-writer.js';
import { ReportStore, type StoredUpload } from './report-store.js';
import { comparisonUrl } from '../ci-summary/urls.js';
import { DecodePool } from './decode/decode-pool.js';
import type { RawUpload } from './decode/decode-upload.js';
import type { ValidUpload } from './validate-upload.js';

/**
 * Accepts one upload: decodes and checks it on a decode thread, lets the uploader decide what
 * it may do (project, replacing, new targets), stores the compressed payload with its totals in
 * one transaction, and answers. The answer (changes, budget alerts) comes from the stored
 * totals; splitting the upload into blocks, storing its version and enqueueing its ingestion
 * follow it (VersionWriter), unless UPLOAD_SYMBOL_CHANGES makes the answer compare versions.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ReportStore) private readonly reports: ReportStore,
    @Inject(DecodePool) private readonly decoder: DecodePool,
    @Inject(VersionWriter) private readonly versions: VersionWriter,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async accept(uploader: Uploader, raw: RawUpload): Promise<UploadResponseData> {
    const { decoded, split } = await this.decoder.decode(raw);
    let authorized: Awaited<ReturnType<Uploader['authorize']>>;
    let stored: StoredUpload;
    try {
      authorized = await uploader.authorize(decoded.upload);
      const { projectId, upload, policy } = authorized;
      stored = await this.reports.store(projectId, { ...decoded, upload }, policy);
    } catch (error) {
      // Refused: nothing was stored, and the split is of no use.
      split.catch(() => undefined);
      throw error;
    }
    const written = this.versions.write(stored, split);
    // Symbol changes compare stored versions: this one's too.
    if (this.config.UPLOAD_SYMBOL_CHANGES) await written;
    const { projectId, upload } = authorized;
    const plan = RegionPlan.of(stored.regionConfig);
    const changes = await changesAgainstParent(
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
      this.config.UPLOAD_SYMBOL_CHANGES
        ? symbolChangesWithin(this.config.SYMBOL_CHANGES_WAIT_S)
        : null,
      this.logger,
    );
    return this.response(projectId, upload, stored, plan, changes);
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
