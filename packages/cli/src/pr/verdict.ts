import type { SummaryTarget } from '@memtrail/contracts';
import { regionPhrase, regionRows } from '../render/summary-markdown.js';
import { budgetLines } from '../upload/protocol.js';

/** What a commit status or check run says about one target. */
export interface Verdict {
  /** `memtrail/<target>`: the name branch protection requires. */
  context: string;
  ok: boolean;
  /** One line, at most 140 characters (GitHub's limit for status descriptions). */
  description: string;
  url: string;
}

export const STATUS_CONTEXT_PREFIX = 'memtrail/';
const MAX_DESCRIPTION = 140;

function clip(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

/** Failure when the build failed or a budget is exceeded; otherwise success with the footprint. */
export function verdictOf(target: SummaryTarget): Verdict {
  const budgets = target.alerts?.budgets ?? [];
  let ok = true;
  let description: string;
  if (target.kind === 'build_failed') {
    ok = false;
    description = 'Build failed';
  } else if (budgets.length > 0) {
    ok = false;
    description = `Budget exceeded: ${budgetLines(budgets).join('; ')}`;
  } else {
    description = regionRows(target).map(regionPhrase).join(', ') || 'No regions';
  }
  return {
    context: `${STATUS_CONTEXT_PREFIX}${target.target_name}`,
    ok,
    description: clip(description),
    url: target.comparison_url || target.dashboard_url || '',
  };
}
