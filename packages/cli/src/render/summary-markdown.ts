import type {
  BudgetAlert,
  SummaryResponse,
  SummaryTarget,
  SymbolChangeRow,
} from '@memtrail/contracts';
import { budgetLines } from '../upload/protocol.js';
import { bytes, delta, percent } from './format.js';

export const COMMENT_MARKER = '<!-- memtrail-pr-comment -->';

/** How many symbol changes a target shows; the comparison link has the rest. */
export const SYMBOL_ROWS = 10;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function regionTable(target: SummaryTarget): string[] {
  const modified = target.changes_summary?.changes?.regions?.modified ?? [];
  if (modified.length === 0) return [];
  const rows = modified.map((r) => {
    const used = r.used_size ?? 0;
    const change = used - (r.old?.used_size ?? used);
    const limit = r.limit_size ?? 0;
    const usage = limit > 0 ? percent((used / limit) * 100) : '—';
    return `| ${cell(r.name)} | ${bytes(used)} | ${delta(change)} | ${limit > 0 ? bytes(limit) : '—'} | ${usage} |`;
  });
  return ['| Region | Used | Change | Size | Utilization |', '|---|--:|--:|--:|--:|', ...rows];
}

function sectionTable(target: SummaryTarget): string[] {
  const modified = target.changes_summary?.changes?.sections?.modified ?? [];
  if (modified.length === 0) return [];
  const rows = modified.map((s) => {
    const size = s.size ?? 0;
    return `| ${cell(s.name)} | ${cell(s.region ?? '')} | ${bytes(size)} | ${delta(size - (s.old?.size ?? size))} |`;
  });
  return ['| Section | Region | Size | Change |', '|---|---|--:|--:|', ...rows];
}

type Kind = 'added' | 'removed' | 'modified' | 'moved';

function symbolChange(row: SymbolChangeRow, kind: Kind): number {
  if (typeof row.delta === 'number') return row.delta;
  const size = row.size ?? 0;
  if (kind === 'added') return size;
  if (kind === 'removed') return -size;
  return size - (row.old?.size ?? size);
}

/** The largest symbol changes first (by absolute delta); moves without a size change last. */
function symbolTable(target: SummaryTarget): string[] {
  const symbols = target.changes_summary?.changes?.symbols;
  if (!symbols) return [];
  const rows = (['added', 'removed', 'modified', 'moved'] as Kind[]).flatMap((kind) =>
    (symbols[kind] ?? []).map((row) => ({ kind, row, change: symbolChange(row, kind) })),
  );
  if (rows.length === 0) return [];
  rows.sort(
    (a, b) => Math.abs(b.change) - Math.abs(a.change) || a.row.name.localeCompare(b.row.name),
  );
  const shown = rows.slice(0, SYMBOL_ROWS).map(({ kind, row, change }) => {
    const section =
      kind === 'moved' && row.old?.section
        ? `${row.old.section} → ${row.section}`
        : (row.section ?? '');
    return `| ${kind} | \`${cell(row.name)}\` | ${cell(section)} | ${bytes(row.size ?? 0)} | ${delta(change)} |`;
  });
  const more =
    rows.length > SYMBOL_ROWS ? [``, `…and ${rows.length - SYMBOL_ROWS} more symbol changes.`] : [];
  return [
    `**Symbol changes** (${rows.length}, largest first)`,
    '',
    '| Change | Symbol | Section | Size | Delta |',
    '|---|---|---|--:|--:|',
    ...shown,
    ...more,
  ];
}

function alertList(budgets: BudgetAlert[]): string[] {
  if (budgets.length === 0) return [];
  return [
    `**:warning: ${budgets.length} budget(s) exceeded**`,
    '',
    ...budgetLines(budgets).map((l) => `- ${l}`),
  ];
}

export function renderTarget(target: SummaryTarget): string {
  const link = target.comparison_url ? ` ([comparison](${target.comparison_url}))` : '';
  const blocks = [
    regionTable(target),
    sectionTable(target),
    symbolTable(target),
    alertList(target.alerts?.budgets ?? []),
  ].filter((b) => b.length > 0);
  const body =
    blocks.length > 0 ? blocks.map((b) => b.join('\n')).join('\n\n') : 'No memory changes.';
  return `### ${target.target_name}${link}\n\n${body}`;
}

/** Values a custom template may use as `{{ name }}`. */
export function templateValues(summary: SummaryResponse['data']): Record<string, string> {
  const targets = summary.targets ?? [];
  const alerts = targets.reduce((n, t) => n + (t.alerts?.budgets?.length ?? 0), 0);
  return {
    marker: COMMENT_MARKER,
    commit: summary.commit_sha ?? '',
    pr_number:
      summary.pr_number === null || summary.pr_number === undefined
        ? ''
        : String(summary.pr_number),
    dashboard_url: summary.dashboard_url ?? '',
    alert_count: String(alerts),
    targets:
      targets.length > 0
        ? targets.map(renderTarget).join('\n\n')
        : 'No targets reported this commit yet.',
  };
}

export const DEFAULT_TEMPLATE = `{{ marker }}
## Memtrail memory report

{{ targets }}
`;

/** Fills `{{ name }}` placeholders; an unknown name is an error so a typo never ships silently. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) {
      throw new Error(
        `unknown template placeholder {{ ${name} }} (known: ${Object.keys(values).join(', ')})`,
      );
    }
    return value;
  });
}

export function renderSummaryMarkdown(
  summary: SummaryResponse['data'],
  template = DEFAULT_TEMPLATE,
): string {
  const text = renderTemplate(template, templateValues(summary));
  return text.includes(COMMENT_MARKER) ? text : `${COMMENT_MARKER}\n${text}`;
}
