import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  RegionPlan,
  type SummaryRegion,
  type SummaryResponse,
  type SummaryTarget,
} from '@memtrail/contracts';
import { SqlPool, type ReportKind } from '@memtrail/db';
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

/** A report of the commit as the summary reads it. */
interface SummaryRow {
  targetId: string;
  parentSha: string | null;
  branch: string | null;
  kind: ReportKind;
  prNumber: string | null;
  regionTotals: unknown;
  sectionTotals: unknown;
  targetName: string;
  regionConfig: unknown;
  budgets: { name: string; branchPattern: string | null; limits: unknown }[] | null;
  /** Null when the parent commit has no report for the target. */
  parentRegionTotals: unknown;
  parentSectionTotals: unknown;
}

/**
 * `GET /summary?commit=<sha>`: the changes and budget alerts of one commit across every target
 * of the key's project, for PR comments. Built from the stored totals, like the upload answer.
 */
@Injectable()
export class SummaryService {
  private readonly logger = new Logger(SummaryService.name);

  constructor(
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  /** `commitSha`: checked by the operation's schema (lowercase hex). */
  async summary(projectId: string, commitSha: string): Promise<SummaryResponse['data']> {
    // Every target's report of the commit, with its target, budgets and parent's totals: one
    // statement (plain SQL, see SqlPool: CI asks for this once per run).
    const { rows: reports } = await this.sql.query<SummaryRow>(
      `SELECT r.target_id AS "targetId", r.parent_sha AS "parentSha", r.branch, r.kind,
              r.pr_number AS "prNumber", r.region_totals AS "regionTotals",
              r.section_totals AS "sectionTotals", t.name AS "targetName",
              t.region_config AS "regionConfig",
              (SELECT json_agg(json_build_object('name', b.name, 'branchPattern', b.branch_pattern,
                        'limits', b.limits) ORDER BY b.created_at, b.name)
               FROM budgets b WHERE b.target_id = t.id) AS budgets,
              parent.region_totals AS "parentRegionTotals",
              parent.section_totals AS "parentSectionTotals"
       FROM reports r JOIN commits c ON c.id = r.commit_id JOIN targets t ON t.id = r.target_id
       LEFT JOIN LATERAL (
         SELECT p.region_totals, p.section_totals FROM reports p
         JOIN commits pc ON pc.id = p.commit_id
         WHERE p.target_id = r.target_id AND pc.project_id = c.project_id AND pc.sha = r.parent_sha
         LIMIT 1
       ) parent ON true
       WHERE c.project_id = $1 AND c.sha = $2
       ORDER BY t.name`,
      [projectId, commitSha],
    );
    if (reports.length === 0) {
      throw new NotFoundException(`No report for commit ${commitSha} in this project`);
    }

    const base = this.config.CORE_URL;
    const targets: SummaryTarget[] = [];
    for (const report of reports) {
      const totals = storedTotals(report.regionTotals, report.sectionTotals);
      const parent =
        report.parentRegionTotals === null
          ? null
          : storedTotals(report.parentRegionTotals, report.parentSectionTotals);
      // Regions as the target's region configuration shows them (region-view.ts).
      const plan = RegionPlan.of(report.regionConfig);
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
        target_name: report.targetName,
        dashboard_url: dashboardUrl(base, projectId, report.targetName),
        comparison_url: comparisonUrl(
          base,
          projectId,
          report.targetName,
          report.parentSha,
          commitSha,
        ),
        changes_summary: { changes: presentChanges(plan, regions, compared).changes },
        alerts: {
          budgets: presentAlerts(
            plan,
            evaluateBudgets(toBudgetRules(report.budgets ?? []), regions, report.branch),
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
