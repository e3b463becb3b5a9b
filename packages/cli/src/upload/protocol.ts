/**
 * URLs and messages of the upload protocol (compat spec §3). The response shapes come from
 * `@memtrail/contracts`; readers still guard every field, since the MemBrowse service and older
 * servers omit some.
 */
import type { BudgetAlert, OperationKey } from '@memtrail/contracts';

/** An operation's URL on the server: the path of its key in the API's operations table. */
const operationUrl = (apiUrl: string, key: OperationKey) =>
  `${apiUrl.replace(/\/+$/, '')}${key.slice(key.indexOf(' ') + 1)}`;

export function uploadUrl(apiUrl: string): string {
  return operationUrl(apiUrl, 'POST /upload');
}

export function summaryUrl(apiUrl: string, commit: string): string {
  return `${operationUrl(apiUrl, 'GET /summary')}?commit=${encodeURIComponent(commit)}`;
}

/** One line per budget, e.g. `Flash budget: FLASH 413 B used, limit 400 B (+13 B)`. */
export function budgetLines(budgets: BudgetAlert[]): string[] {
  return budgets.map((budget) => {
    const regions = (budget.exceeded_regions ?? []).map((region) => {
      const used = budget.current_usage?.[region];
      const limit = budget.limits?.[region];
      const over = budget.exceeded_by?.[region];
      return `${region} ${used ?? '?'} B used, limit ${limit ?? '?'} B (+${over ?? '?'} B)`;
    });
    return `${budget.budget_name}: ${regions.join('; ')}`;
  });
}
