import { Inject, Injectable } from '@nestjs/common';
import type { HeadsData, TargetRef } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { commitInfo } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';

@Injectable()
export class HeadsService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
  ) {}

  async heads(ref: TargetRef): Promise<HeadsData> {
    const target = await this.reports.target(ref);
    const rows = await this.prisma.head.findMany({
      where: { targetId: target.id },
      orderBy: [{ updatedAt: 'desc' }, { branch: 'asc' }],
      select: {
        branch: true,
        commitSha: true,
        updatedAt: true,
        report: {
          select: {
            kind: true,
            status: true,
            commit: {
              select: {
                sha: true,
                message: true,
                authorName: true,
                authorEmail: true,
                committedAt: true,
                tags: true,
              },
            },
          },
        },
      },
    });
    return {
      heads: rows.map((h) => ({
        branch: h.branch,
        commit_sha: h.commitSha,
        updated_at: h.updatedAt.toISOString(),
        kind: h.report.kind,
        status: h.report.status,
        commit: commitInfo(h.report.commit),
      })),
    };
  }
}
