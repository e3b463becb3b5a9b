import type { BudgetAlert } from '@memtrail/contracts';
import { globMatches } from './branch-glob.js';
import type { RegionTotal } from './totals.js';

export interface BudgetRule {
  name: string;
  branchPattern: string | null;
  /** Region name → maximum used bytes. */
  limits: Record<string, number>;
}

/** Budgets as stored (limits in a JSON column) to the rules evaluated here. */
export function toBudgetRules(
  budgets: { name: string; branchPattern: string | null; limits: unknown }[],
): BudgetRule[] {
  return budgets.map((b) => ({
    name: b.name,
    branchPattern: b.branchPattern,
    limits: (b.limits ?? {}) as Record<string, number>,
  }));
}

/** Whether a budget's branch pattern (a glob, see branch-glob.ts) applies to the branch. */
export function branchMatches(pattern: string | null, branch: string | null): boolean {
  if (!pattern) return true;
  if (branch === null) return false;
  return globMatches(pattern, branch);
}

/** The alerts of every budget that applies to the branch and that some region exceeds. */
export function evaluateBudgets(
  budgets: BudgetRule[],
  regions: Record<string, RegionTotal>,
  branch: string | null,
): BudgetAlert[] {
  const alerts: BudgetAlert[] = [];
  for (const budget of budgets) {
    if (!branchMatches(budget.branchPattern, branch)) continue;
    const alert: BudgetAlert = {
      budget_name: budget.name,
      exceeded_regions: [],
      current_usage: {},
      limits: {},
      exceeded_by: {},
    };
    for (const [region, limit] of Object.entries(budget.limits)) {
      const used = regions[region]?.used_size;
      if (used === undefined || used <= limit) continue;
      alert.exceeded_regions.push(region);
      alert.current_usage[region] = used;
      alert.limits[region] = limit;
      alert.exceeded_by[region] = used - limit;
    }
    if (alert.exceeded_regions.length > 0) alerts.push(alert);
  }
  return alerts;
}
