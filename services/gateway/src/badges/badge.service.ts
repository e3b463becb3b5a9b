import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { RegionPlan } from '@memtrail/contracts';
import { PrismaClient } from '@memtrail/db';
import { PublicProjects } from '../public-access/public-projects.js';
import { branchMatches, toBudgetRules, type BudgetRule } from '../ci-summary/budget-alerts.js';
import { shownRegions } from '../ci-summary/region-view.js';
import { storedTotals } from '../ci-summary/totals.js';
import { NEAR_BUDGET, type BudgetState, type RegionBadge } from './badge-content.js';

export interface BadgeRequest {
  projectId: string;
  target: string;
  /** A region of the report; the first one shown when absent. */
  region?: string;
  /** The branch whose head is shown; see `defaultHead`. */
  branch?: string;
}

interface HeadRow {
  branch: string;
  updatedAt: Date;
  report: { regionTotals: unknown };
}

/**
 * Without `?branch=`: main, else master, else the head that moved last. Heads of pull-request
 * uploads (`owner:branch`, a name no git branch can have) come last: a fork's PR is not the
 * project's footprint.
 */
function defaultHead(heads: HeadRow[]): HeadRow | undefined {
  const byName = (name: string) => heads.find((head) => head.branch === name);
  const latest = [...heads].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  return (
    byName('main') ??
    byName('master') ??
    latest.find((head) => !head.branch.includes(':')) ??
    latest[0]
  );
}

function budgetState(
  budgets: BudgetRule[],
  plan: RegionPlan,
  branch: string,
  region: string,
  used: number,
): BudgetState {
  const order: BudgetState[] = ['none', 'within', 'near', 'exceeded'];
  let state: BudgetState = 'none';
  for (const budget of budgets) {
    if (!branchMatches(budget.branchPattern, branch)) continue;
    for (const [name, limit] of Object.entries(budget.limits)) {
      if (plan.canonical(name) !== region) continue;
      const here: BudgetState =
        used > limit ? 'exceeded' : used >= limit * NEAR_BUDGET ? 'near' : 'within';
      if (order.indexOf(here) > order.indexOf(state)) state = here;
    }
  }
  return state;
}

/**
 * What a badge shows: one region of a target's head report, from the totals stored with it
 * (no ClickHouse read). Public projects only; anything else is "not found", whether it exists
 * or not, so badges reveal nothing of private projects.
 */
@Injectable()
export class BadgeService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(PublicProjects) private readonly publicProjects: PublicProjects,
  ) {}

  async region(request: BadgeRequest): Promise<RegionBadge> {
    if (!(await this.publicProjects.isPublic(request.projectId))) {
      throw new NotFoundException('not found');
    }
    const target = await this.prisma.target.findUnique({
      where: { projectId_name: { projectId: request.projectId, name: request.target } },
      select: {
        regionConfig: true,
        budgets: { select: { name: true, branchPattern: true, limits: true } },
        heads: {
          ...(request.branch ? { where: { branch: request.branch } } : {}),
          select: { branch: true, updatedAt: true, report: { select: { regionTotals: true } } },
        },
      },
    });
    if (!target) throw new NotFoundException('target not found');
    const head = defaultHead(target.heads);
    if (!head) throw new NotFoundException(request.branch ? 'no report on branch' : 'no report');

    // As the dashboard shows it: merged regions, size overrides, display names, order.
    const plan = RegionPlan.of(target.regionConfig);
    const regions = shownRegions(plan, storedTotals(head.report.regionTotals, []));
    const name = request.region
      ? plan.canonical(request.region)
      : Object.keys(regions).find((region) => !regions[region]!.hidden);
    const usage = name === undefined ? undefined : regions[name];
    if (name === undefined || !usage) throw new NotFoundException('region not found');
    return {
      label: usage.display_name,
      used: usage.used_size,
      limit: usage.limit_size,
      state: budgetState(toBudgetRules(target.budgets), plan, head.branch, name, usage.used_size),
    };
  }
}
