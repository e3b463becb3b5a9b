/** Budgets of a target: limits and the rule that checks a budget as written (web form and gateway). */

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
