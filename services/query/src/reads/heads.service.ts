import { Inject, Injectable } from '@nestjs/common';
import type { HeadsData, TargetRef } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import { commitInfo, type ReportRecord } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';

@Injectable()
export class HeadsService {
  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
  ) {}

  async heads(ref: TargetRef): Promise<HeadsData> {
    const target = await this.reports.target(ref);
    const { rows } = await this.sql.query<
      {
        branch: string;
        commitSha: string;
        updatedAt: Date;
        kind: ReportRecord['kind'];
        status: ReportRecord['status'];
      } & ReportRecord['commit']
    >(
      `SELECT h.branch, h.commit_sha AS "commitSha", h.updated_at AS "updatedAt", r.kind,
              r.status, c.sha, c.message, c.author_name AS "authorName",
              c.author_email AS "authorEmail", c.committed_at AS "committedAt", c.tags
       FROM heads h JOIN reports r ON r.id = h.report_id JOIN commits c ON c.id = r.commit_id
       WHERE h.target_id = $1
       ORDER BY h.updated_at DESC, h.branch ASC`,
      [target.id],
    );
    return {
      heads: rows.map(({ branch, commitSha, updatedAt, kind, status, ...commit }) => ({
        branch,
        commit_sha: commitSha,
        updated_at: updatedAt.toISOString(),
        kind,
        status,
        commit: commitInfo(commit),
      })),
    };
  }
}
