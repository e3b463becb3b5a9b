import type { BudgetAlert, UploadSuccessResponse } from '@memtrail/contracts';
import { delta } from '../render/format.js';
import { budgetLines } from './protocol.js';

export function budgetsOf(response: UploadSuccessResponse): BudgetAlert[] {
  return response.data?.alerts?.budgets ?? [];
}

/** `Uploaded stm32 @ 1a2b3c4: FLASH +13 B, RAM 0 B — <url>` */
export function resultLine(
  response: UploadSuccessResponse,
  target: string,
  sha: string | null | undefined,
): string {
  const summary = response.data?.changes_summary ?? {};
  const regions = Object.entries(summary).map(
    ([region, change]) => `${region} ${delta(change?.used_change ?? 0)}`,
  );
  const at = sha ? ` @ ${sha.slice(0, 7)}` : '';
  // No summary at all means there was nothing to compare with.
  const parent = response.data?.parent_sha;
  const changes =
    regions.length > 0
      ? `: ${regions.join(', ')}`
      : parent
        ? `: nothing to compare with (the parent ${parent.slice(0, 7)} has no report yet)`
        : ': first report of this target';
  const url = response.data?.comparison_url ? ` — ${response.data.comparison_url}` : '';
  return `Uploaded ${target}${at}${changes}${url}`;
}

/** The error lines for exceeded budgets (compat spec §3.2 wording, plus the figures). */
export function alertLines(budgets: BudgetAlert[], sha: string | null | undefined): string[] {
  return [
    `ERROR: (${sha ?? 'unknown commit'}): Budget Alert Error: ${budgets.length} budget(s) exceeded. Use --dont-fail-on-alerts to continue despite alerts.`,
    ...budgetLines(budgets).map((line) => `  ${line}`),
    'ERROR: Failed to upload report: Budget alerts detected',
  ];
}

/** What `--output-raw-response` prints (and the GitHub Action saves as report_path). */
export function rawResponse(
  response: unknown,
  target: string,
  prNumber: string | null | undefined,
): {
  comparison_url: string;
  api_response: unknown;
  target_name: string;
  pr_number: string | null;
} {
  const url = (response as UploadSuccessResponse | undefined)?.data?.comparison_url;
  return {
    comparison_url: url ?? '',
    api_response: response,
    target_name: target,
    pr_number: prNumber ?? null,
  };
}
