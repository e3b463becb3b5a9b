import { ConflictException, Inject, Injectable } from '@nestjs/common';
import { inTransaction, SqlPool, type SqlClient } from '@memtrail/db';
import { toBudgetRules, type BudgetRule } from './budgets.js';
import type { DecodedUpload } from './decode/decode-upload.js';
import { storedTotals, type Totals } from './totals.js';
import type { ValidUpload } from './validate-upload.js';

export interface StoredUpload {
  reportId: string;
  targetId: string;
  version: number;
  isOverwritten: boolean;
  totals: Totals;
  parentTotals: Totals | null;
  budgets: BudgetRule[];
}

/**
 * Stores one upload in a single transaction: target, commit metadata, the report row with its
 * payload and totals, the branch head. Plain SQL rather than Prisma because this runs on every
 * upload (see SqlPool); the tables and their meaning are those of the Prisma schema.
 */
@Injectable()
export class ReportStore {
  constructor(@Inject(SqlPool) private readonly sql: SqlPool) {}

  store(projectId: string, decoded: DecodedUpload): Promise<StoredUpload> {
    return inTransaction(this.sql, (db) => this.storeIn(db, projectId, decoded));
  }

  private async storeIn(
    db: SqlClient,
    projectId: string,
    { upload, totals: reportTotals, symbolCount, gzip, sha256 }: DecodedUpload,
  ): Promise<StoredUpload> {
    // Uploads of one target are serialised, so concurrent uploads of the same commit end as
    // one consistent report and heads move in order.
    await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `${projectId}/${upload.targetName}`,
    ]);
    const targetId = await this.upsertTarget(db, projectId, upload.targetName);
    const commitId = await this.upsertCommit(db, projectId, upload);

    const parentTotals = upload.parentSha
      ? await this.reportTotals(db, targetId, upload.parentSha)
      : null;
    if (upload.kind === 'identical' && !parentTotals) {
      throw new ConflictException(
        `Identical upload of ${upload.commitSha}: its parent ${upload.parentSha} has no report for target ` +
          `"${upload.targetName}" yet; upload the parent first`,
      );
    }
    // An identical build's footprint is its parent's; a failed build has none.
    const totals = upload.kind === 'identical' ? parentTotals! : reportTotals;

    const existing = await db.query<{ id: string }>(
      'SELECT id FROM reports WHERE target_id = $1 AND commit_id = $2',
      [targetId, commitId],
    );
    const fields = [
      upload.parentSha,
      upload.noParent,
      upload.branch,
      upload.pr.number,
      upload.pr.name,
      upload.pr.authorName,
      upload.pr.authorEmail,
      upload.kind,
      gzip,
      sha256,
      JSON.stringify(totals.regions),
      JSON.stringify(totals.sections),
      symbolCount,
      upload.analysisVersion,
    ];
    const report = existing.rows[0]
      ? await db.query<{ id: string; version: number }>(
          `UPDATE reports SET parent_sha = $1, no_parent = $2, branch = $3, pr_number = $4,
             pr_name = $5, pr_author_name = $6, pr_author_email = $7, kind = $8::report_kind,
             status = 'pending', payload = $9, payload_sha256 = $10, region_totals = $11::jsonb,
             section_totals = $12::jsonb, symbol_count = $13, analysis_version = $14,
             last_error = NULL, version = version + 1, overwrite_count = overwrite_count + 1,
             updated_at = now()
           WHERE id = $15
           RETURNING id::text, version`,
          [...fields, existing.rows[0].id],
        )
      : await db.query<{ id: string; version: number }>(
          `INSERT INTO reports (parent_sha, no_parent, branch, pr_number, pr_name, pr_author_name,
             pr_author_email, kind, status, payload, payload_sha256, region_totals, section_totals,
             symbol_count, analysis_version, target_id, commit_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::report_kind, 'pending', $9, $10, $11::jsonb,
             $12::jsonb, $13, $14, $15, $16)
           RETURNING id::text, version`,
          [...fields, targetId, commitId],
        );
    const { id: reportId, version } = report.rows[0]!;

    if (upload.branch) await this.moveHead(db, targetId, upload, reportId);
    const budgets = await db.query<{ name: string; branchPattern: string | null; limits: unknown }>(
      'SELECT name, branch_pattern AS "branchPattern", limits FROM budgets WHERE target_id = $1',
      [targetId],
    );
    return {
      reportId,
      targetId,
      version,
      isOverwritten: existing.rows.length > 0,
      totals,
      parentTotals,
      budgets: toBudgetRules(budgets.rows),
    };
  }

  /** Targets are created by their first upload. */
  private async upsertTarget(db: SqlClient, projectId: string, name: string): Promise<string> {
    const inserted = await db.query<{ id: string }>(
      `INSERT INTO targets (project_id, name) VALUES ($1, $2)
       ON CONFLICT (project_id, name) DO NOTHING RETURNING id::text`,
      [projectId, name],
    );
    if (inserted.rows[0]) return inserted.rows[0].id;
    const found = await db.query<{ id: string }>(
      'SELECT id::text FROM targets WHERE project_id = $1 AND name = $2',
      [projectId, name],
    );
    return found.rows[0]!.id;
  }

  /** Commit metadata is stored once per project and commit; later uploads only fill gaps. */
  private async upsertCommit(
    db: SqlClient,
    projectId: string,
    upload: ValidUpload,
  ): Promise<string> {
    const c = upload.commit;
    const rows = await db.query<{ id: string }>(
      `INSERT INTO commits (project_id, sha, message, author_name, author_email, committed_at, tags)
       VALUES ($1, $2, $3, $4, $5, $6, $7::text[])
       ON CONFLICT (project_id, sha) DO UPDATE SET
         message = COALESCE(commits.message, EXCLUDED.message),
         author_name = COALESCE(commits.author_name, EXCLUDED.author_name),
         author_email = COALESCE(commits.author_email, EXCLUDED.author_email),
         committed_at = COALESCE(commits.committed_at, EXCLUDED.committed_at),
         tags = CASE WHEN cardinality(commits.tags) = 0 THEN EXCLUDED.tags ELSE commits.tags END,
         updated_at = now()
       RETURNING id::text`,
      [projectId, upload.commitSha, c.message, c.authorName, c.authorEmail, c.committedAt, c.tags],
    );
    return rows.rows[0]!.id;
  }

  private async reportTotals(db: SqlClient, targetId: string, sha: string): Promise<Totals | null> {
    const rows = await db.query<{ region_totals: unknown; section_totals: unknown }>(
      `SELECT r.region_totals, r.section_totals FROM reports r
       JOIN commits c ON c.id = r.commit_id
       WHERE r.target_id = $1 AND c.sha = $2 LIMIT 1`,
      [targetId, sha],
    );
    const row = rows.rows[0];
    return row ? storedTotals(row.region_totals, row.section_totals) : null;
  }

  /** A branch's head moves to this commit unless the head already is a newer commit. */
  private async moveHead(
    db: SqlClient,
    targetId: string,
    upload: ValidUpload,
    reportId: string,
  ): Promise<void> {
    const head = await db.query<{ committed_at: Date | null }>(
      `SELECT c.committed_at FROM heads h
       JOIN reports r ON r.id = h.report_id JOIN commits c ON c.id = r.commit_id
       WHERE h.target_id = $1 AND h.branch = $2`,
      [targetId, upload.branch],
    );
    const headTime = head.rows[0]?.committed_at;
    const time = upload.commit.committedAt;
    if (head.rows[0] && headTime && time && time < headTime) return;
    await db.query(
      `INSERT INTO heads (target_id, branch, commit_sha, report_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (target_id, branch) DO UPDATE SET
         commit_sha = EXCLUDED.commit_sha, report_id = EXCLUDED.report_id, updated_at = now()`,
      [targetId, upload.branch, upload.commitSha, reportId],
    );
  }
}
