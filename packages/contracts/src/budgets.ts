/** A memory budget of one target: limits per region, optionally only on matching branches. */
export interface Budget {
  id: string;
  name: string;
  /** Glob over branch names (`*`, `?`); null applies the budget to every branch. */
  branch_pattern: string | null;
  /** Region name → maximum used bytes. */
  limits: Record<string, number>;
  created_at: string;
  updated_at: string;
}

export interface BudgetInput {
  name: string;
  branch_pattern?: string | null;
  limits: Record<string, number>;
}

export interface BudgetsData {
  budgets: Budget[];
}

export interface BudgetData {
  budget: Budget;
}

export const BUDGET_NAME_MAX = 100;
export const BUDGET_PATTERN_MAX = 200;

/** Returns the first problem with a budget document, or null when it is valid. */
export function validateBudgetInput(input: unknown): string | null {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    return 'Budget must be an object';
  const { name, branch_pattern: pattern, limits } = input as Record<string, unknown>;
  if (typeof name !== 'string' || !name.trim()) return 'Budget name is required';
  if (name.trim().length > BUDGET_NAME_MAX)
    return `Budget name cannot exceed ${BUDGET_NAME_MAX} characters`;
  if (pattern !== undefined && pattern !== null) {
    if (typeof pattern !== 'string') return 'branch_pattern must be a string';
    if (pattern.length > BUDGET_PATTERN_MAX)
      return `branch_pattern cannot exceed ${BUDGET_PATTERN_MAX} characters`;
  }
  if (!limits || typeof limits !== 'object' || Array.isArray(limits)) {
    return 'limits must be an object of region name to bytes';
  }
  const entries = Object.entries(limits);
  if (entries.length === 0) return 'limits needs at least one region';
  for (const [region, bytes] of entries) {
    if (!region.trim()) return 'limits has an empty region name';
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) {
      return `limits.${region} must be a whole number of bytes`;
    }
  }
  return null;
}

/** One region of a budget at one commit. */
export interface BudgetRegionState {
  /** The region as the budget names it (merged name, see RegionPlan). */
  region: string;
  display_name: string;
  limit: number;
  /** Bytes in use at the commit; null when the commit has no such region. */
  used: number | null;
  /** Bytes over the limit (0 within it). */
  exceeded_by: number;
}

export interface BudgetState {
  budget: Budget;
  /** The budget's branch pattern takes the commit's branch (every budget applies without one). */
  applies: boolean;
  exceeded: boolean;
  regions: BudgetRegionState[];
}

/** `GET /api/{project}/{target}/budgets/status?sha=`: every budget of the target at a commit. */
export interface BudgetStatusData {
  commit_sha: string;
  branch: string | null;
  budgets: BudgetState[];
}
