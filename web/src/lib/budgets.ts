import type { BudgetStatusData } from '@memtrail/contracts';
import { useTargetResource } from './data.ts';

/** One budget limit on one region, as a page marks it. */
export interface RegionBudget {
  budget: string;
  limit: number;
  used: number | null;
  exceeded_by: number;
}

/** Every budget of the target at one commit (gateway `budgets/status`). */
export function useBudgetStatus(projectId: string, target: string, sha: string | undefined) {
  return useTargetResource<BudgetStatusData>(
    projectId,
    target,
    sha ? `budgets/status?sha=${encodeURIComponent(sha)}` : null,
  );
}

/** The limits of the budgets that apply at the commit, by (merged) region name. */
export function budgetsByRegion(status: BudgetStatusData | undefined): Map<string, RegionBudget[]> {
  const byRegion = new Map<string, RegionBudget[]>();
  for (const { budget, applies, regions } of status?.budgets ?? []) {
    if (!applies) continue;
    for (const region of regions) {
      byRegion.set(region.region, [
        ...(byRegion.get(region.region) ?? []),
        {
          budget: budget.name,
          limit: region.limit,
          used: region.used,
          exceeded_by: region.exceeded_by,
        },
      ]);
    }
  }
  return byRegion;
}
