import { Inject, Injectable } from '@nestjs/common';
import { RegionPlan, type TargetRef } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { notFound } from './errors.js';
import type { ReportRecord } from './report-rows.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TargetRecord {
  id: string;
  projectId: string;
  name: string;
  /** The target's region configuration, applied to every region and source path it answers. */
  plan: RegionPlan;
  /** The configuration as stored: a cache key for what the plan shapes. */
  planKey: string;
}

const REPORT_SELECT = {
  id: true,
  targetId: true,
  kind: true,
  status: true,
  branch: true,
  parentSha: true,
  overwriteCount: true,
  version: true,
  ingestedVersion: true,
  symbolCount: true,
  createdAt: true,
  regionTotals: true,
  sectionTotals: true,
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
} as const;

const targetFields = ({ projectId, name, plan, planKey }: TargetRecord) => ({
  projectId,
  targetName: name,
  plan,
  planKey,
});

/** Targets and single reports, looked up by the names and SHAs of the URL. */
@Injectable()
export class ReportsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async target(ref: TargetRef): Promise<TargetRecord> {
    const row = UUID.test(ref.projectId)
      ? await this.prisma.target.findUnique({
          where: { projectId_name: { projectId: ref.projectId, name: ref.target } },
          select: { id: true, projectId: true, name: true, regionConfig: true },
        })
      : null;
    if (!row) throw notFound(`Target ${ref.target} not found`);
    const { regionConfig, ...target } = row;
    return {
      ...target,
      plan: RegionPlan.of(regionConfig),
      planKey: JSON.stringify(regionConfig ?? null),
    };
  }

  /** The report of `sha` for the target; 404 names both when there is none. */
  async report(target: TargetRecord, sha: string): Promise<ReportRecord> {
    const row = await this.prisma.report.findFirst({
      where: { targetId: target.id, commit: { projectId: target.projectId, sha } },
      select: REPORT_SELECT,
    });
    if (!row) throw notFound(`Commit ${sha} has no report for target ${target.name}`);
    return { ...row, ...targetFields(target) };
  }

  /** The first and last ingested report of a branch within a time window (inclusive). */
  async branchEnds(
    target: TargetRecord,
    branch: string,
    from: Date | null,
    to: Date | null,
  ): Promise<[ReportRecord, ReportRecord]> {
    const where = {
      targetId: target.id,
      branch,
      ingestedVersion: { not: null },
      commit: {
        committedAt: { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}), not: null },
      },
    };
    const [first, last] = await Promise.all([
      this.prisma.report.findFirst({
        where,
        orderBy: { commit: { committedAt: 'asc' } },
        select: REPORT_SELECT,
      }),
      this.prisma.report.findFirst({
        where,
        orderBy: { commit: { committedAt: 'desc' } },
        select: REPORT_SELECT,
      }),
    ]);
    if (!first || !last) {
      throw notFound(
        `Branch ${branch} of target ${target.name} has no ingested report in that window`,
      );
    }
    return [
      { ...first, ...targetFields(target) },
      { ...last, ...targetFields(target) },
    ];
  }
}
