import { ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import type { BudgetAlert, UploadResponseData } from '@memtrail/contracts';
import { PrismaClient, type Prisma } from '@memtrail/db';
import { enqueueReport, type ReportsQueue } from '@memtrail/queue';
import { GatewayConfig } from '../config.js';
import { evaluateBudgets, toBudgetRules, type BudgetRule } from './budgets.js';
import { changesAgainstParent } from './changes.js';
import { REPORTS_QUEUE } from './reports-queue.provider.js';
import { computeTotals, storedTotals, type Totals } from './totals.js';
import { comparisonUrl } from './urls.js';
import type { UploadBody } from './upload-body.js';
import { validateUpload, type ValidUpload } from './validate-upload.js';

interface Stored {
  reportId: string;
  targetId: string;
  version: number;
  isOverwritten: boolean;
  totals: Totals;
  parentTotals: Totals | null;
  budgets: BudgetRule[];
}

type Tx = Prisma.TransactionClient;

/**
 * Accepts one upload: stores the compressed payload with its totals in one transaction, then
 * enqueues ingestion. The answer (changes, budget alerts) comes from the stored totals, so it
 * never waits for ClickHouse; a failed enqueue is recovered by the worker's sweeper.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(REPORTS_QUEUE) private readonly queue: ReportsQueue,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async accept(projectId: string, body: UploadBody): Promise<UploadResponseData> {
    const upload = validateUpload(body.json);
    const stored = await this.prisma.$transaction((tx) => this.store(tx, projectId, upload, body), {
      maxWait: 10_000,
      timeout: 30_000,
    });
    try {
      await enqueueReport(this.queue, { reportId: stored.reportId, version: stored.version });
    } catch (error) {
      // The report is safe in Postgres and still pending: the sweeper enqueues it later.
      this.logger.warn(
        `report ${stored.reportId} stored but not enqueued: ${(error as Error).message}`,
      );
    }
    const changes = await changesAgainstParent(
      this.prisma,
      {
        targetId: stored.targetId,
        commitSha: upload.commitSha,
        parentSha: upload.parentSha,
        totals: stored.totals,
        parentTotals: stored.parentTotals,
        ...(upload.kind === 'full' ? { report: upload.report } : {}),
      },
      this.config.UPLOAD_SYMBOL_CHANGES,
      this.logger,
    );
    return this.response(projectId, upload, stored, changes);
  }

  private async store(
    tx: Tx,
    projectId: string,
    upload: ValidUpload,
    body: UploadBody,
  ): Promise<Stored> {
    // Uploads of one target are serialised, so concurrent uploads of the same commit end as
    // one consistent report and heads move in order.
    await tx.$queryRaw`SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(${`${projectId}/${upload.targetName}`}, 0))) AS locked`;
    const target = await tx.target.upsert({
      where: { projectId_name: { projectId, name: upload.targetName } },
      create: { projectId, name: upload.targetName },
      update: {},
    });
    const commitId = await this.upsertCommit(tx, projectId, upload);

    const parent = upload.parentSha
      ? await tx.report.findFirst({
          where: { targetId: target.id, commit: { sha: upload.parentSha } },
          select: { regionTotals: true, sectionTotals: true },
        })
      : null;
    const parentTotals = parent ? storedTotals(parent.regionTotals, parent.sectionTotals) : null;
    if (upload.kind === 'identical' && !parentTotals) {
      throw new ConflictException(
        `Identical upload of ${upload.commitSha}: its parent ${upload.parentSha} has no report for target ` +
          `"${upload.targetName}" yet; upload the parent first`,
      );
    }
    // An identical build's footprint is its parent's; a failed build has none.
    const totals = upload.kind === 'identical' ? parentTotals! : computeTotals(upload.report);

    const fields = {
      parentSha: upload.parentSha,
      noParent: upload.noParent,
      branch: upload.branch,
      prNumber: upload.pr.number,
      prName: upload.pr.name,
      prAuthorName: upload.pr.authorName,
      prAuthorEmail: upload.pr.authorEmail,
      kind: upload.kind,
      status: 'pending' as const,
      // Node Buffers are Uint8Arrays over a plain ArrayBuffer here; the cast avoids a copy.
      payload: body.gzip as Uint8Array<ArrayBuffer>,
      payloadSha256: body.sha256,
      regionTotals: totals.regions as unknown as Prisma.InputJsonValue,
      sectionTotals: totals.sections as unknown as Prisma.InputJsonValue,
      symbolCount: upload.report.symbols.length,
      analysisVersion: upload.analysisVersion,
      lastError: null,
    };
    const existing = await tx.report.findUnique({
      where: { targetId_commitId: { targetId: target.id, commitId } },
      select: { id: true },
    });
    const report = existing
      ? await tx.report.update({
          where: { id: existing.id },
          data: { ...fields, version: { increment: 1 }, overwriteCount: { increment: 1 } },
          select: { id: true, version: true },
        })
      : await tx.report.create({
          data: { ...fields, targetId: target.id, commitId },
          select: { id: true, version: true },
        });

    if (upload.branch) await this.moveHead(tx, target.id, upload, report.id);
    const budgets = await tx.budget.findMany({ where: { targetId: target.id } });
    return {
      reportId: report.id,
      targetId: target.id,
      version: report.version,
      isOverwritten: existing !== null,
      totals,
      parentTotals,
      budgets: toBudgetRules(budgets),
    };
  }

  /** Commit metadata is stored once per project and commit; later uploads only fill gaps. */
  private async upsertCommit(tx: Tx, projectId: string, upload: ValidUpload): Promise<string> {
    const c = upload.commit;
    const rows = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO commits (project_id, sha, message, author_name, author_email, committed_at, tags)
      VALUES (${projectId}::uuid, ${upload.commitSha}, ${c.message}, ${c.authorName}, ${c.authorEmail},
              ${c.committedAt}, ${c.tags}::text[])
      ON CONFLICT (project_id, sha) DO UPDATE SET
        message = COALESCE(commits.message, EXCLUDED.message),
        author_name = COALESCE(commits.author_name, EXCLUDED.author_name),
        author_email = COALESCE(commits.author_email, EXCLUDED.author_email),
        committed_at = COALESCE(commits.committed_at, EXCLUDED.committed_at),
        tags = CASE WHEN cardinality(commits.tags) = 0 THEN EXCLUDED.tags ELSE commits.tags END,
        updated_at = now()
      RETURNING id::text AS id`;
    return rows[0]!.id;
  }

  /** A branch's head moves to this commit unless the head already is a newer commit. */
  private async moveHead(
    tx: Tx,
    targetId: string,
    upload: ValidUpload,
    reportId: string,
  ): Promise<void> {
    const branch = upload.branch!;
    const head = await tx.head.findUnique({
      where: { targetId_branch: { targetId, branch } },
      select: { report: { select: { commit: { select: { committedAt: true } } } } },
    });
    const headTime = head?.report.commit.committedAt;
    const time = upload.commit.committedAt;
    if (head && headTime && time && time < headTime) return;
    await tx.head.upsert({
      where: { targetId_branch: { targetId, branch } },
      create: { targetId, branch, commitSha: upload.commitSha, reportId },
      update: { commitSha: upload.commitSha, reportId },
    });
  }

  private response(
    projectId: string,
    upload: ValidUpload,
    stored: Stored,
    changes: Pick<UploadResponseData, 'changes' | 'changes_summary'>,
  ): UploadResponseData {
    const alerts: BudgetAlert[] = evaluateBudgets(
      stored.budgets,
      stored.totals.regions,
      upload.branch,
    );
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
      ...changes,
      alerts: { budgets: alerts },
    };
  }
}
