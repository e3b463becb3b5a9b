import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  RegionPlan,
  type SummaryRegion,
  type SummaryResponse,
  type SummaryTarget,
} from '@memtrail/contracts';
import { PrismaClient, SqlPool } from '@memtrail/db';
import { GatewayConfig } from '../config.js';
import { evaluateBudgets, toBudgetRules } from './budget-alerts.js';
import { changesAgainstParent } from './changes.js';
import { presentAlerts, presentChanges, shownRegions, type ShownRegions } from './region-view.js';
import { storedTotals } from './totals.js';
import { comparisonUrl, dashboardUrl } from './urls.js';

/** Every region as shown, with its change when the parent's totals are known. */
function summaryRegions(
  plan: RegionPlan,
  regions: ShownRegions,
  parent: ShownRegions | null,
): SummaryRegion[] {
  return Object.entries(regions)
    .filter(([, region]) => !region.hidden)
    .map(([name, region]) => ({
      name: plan.displayName(name),
      used_size: region.used_size,
      limit_size: region.limit_size,
      change: parent ? region.used_size - (parent[name]?.used_size ?? 0) : null,
    }));
}

/**
 * `GET /summary?commit=<sha>`: the changes and budget alerts of one commit across every target
 * of the key's project, for PR comments. Built from the stored totals, like the upload answer.
 */
@Injectable()
export class SummaryService {
  private readonly logger = new Logger(SummaryService.name);

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** `commitSha`: checked by the operation's schema (lowercase hex). */
  async summary(projectId: string, commitSha: string): Promise<SummaryResponse['data']> {
    const reports = await this.prisma.report.findMany({
      where: { commit: { projectId, sha: commitSha } },
      include: { target: { include: { budgets: true } } },
      orderBy: { target: { name: 'asc' } },
    });
    if (reports.length === 0) {
      throw new NotFoundException(`No report for commit ${commitSha} in this project`);
    }
    const parents = await this.prisma.report.findMany({
      where: {
        OR: reports
          .filter((r) => r.parentSha)
          .map((r) => ({ targetId: r.targetId, commit: { projectId, sha: r.parentSha! } })),
      },
      select: { targetId: true, regionTotals: true, sectionTotals: true },
    });
    const parentOf = new Map(
      parents.map((p) => [p.targetId, storedTotals(p.regionTotals, p.sectionTotals)]),
    );

    const base = this.config.CORE_URL;
    const targets: SummaryTarget[] = [];
    for (const report of reports) {
      const totals = storedTotals(report.regionTotals, report.sectionTotals);
      const parent = report.parentSha ? (parentOf.get(report.targetId) ?? null) : null;
      // Regions as the target's region configuration shows them (region-view.ts).
      const plan = RegionPlan.of(report.target.regionConfig);
      const regions = shownRegions(plan, totals);
      // PR comments are not latency-bound, so they always get symbol changes when available.
      const compared = await changesAgainstParent(
        this.sql,
        {
          plan,
          projectId,
          targetId: report.targetId,
          commitSha,
          parentSha: report.parentSha,
          totals,
          parentTotals: parent,
        },
        true,
        this.logger,
      );
      targets.push({
        target_name: report.target.name,
        dashboard_url: dashboardUrl(base, projectId, report.target.name),
        comparison_url: comparisonUrl(
          base,
          projectId,
          report.target.name,
          report.parentSha,
          commitSha,
        ),
        changes_summary: { changes: presentChanges(plan, regions, compared).changes },
        alerts: {
          budgets: presentAlerts(
            plan,
            evaluateBudgets(toBudgetRules(report.target.budgets), regions, report.branch),
          ),
        },
        kind: report.kind,
        parent_sha: report.parentSha,
        regions: summaryRegions(plan, regions, parent && shownRegions(plan, parent)),
      });
    }
    const prNumber = reports
      .map((r) => Number(r.prNumber))
      .find((n) => Number.isInteger(n) && n > 0);
    return {
      commit_sha: commitSha,
      pr_number: prNumber ?? null,
      dashboard_url: `${base.replace(/\/$/, '')}/project/${projectId}`,
      targets,
    };
  }
}
