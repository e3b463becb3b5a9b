import type {
  BudgetAlert,
  SectionChange,
  SummaryResponse,
  SummaryTarget,
  SymbolChangeRow,
} from '@memtrail/contracts';
import { budgetLines } from '../upload/protocol.js';
import { bytes, delta, percent } from './format.js';

export type Summary = SummaryResponse['data'];

export const COMMENT_MARKER = '<!-- memtrail-pr-comment -->';

/** Symbol changes a target shows unless `--max-symbols` says otherwise; the comparison has all. */
export const DEFAULT_MAX_SYMBOLS = 10;

/** With more targets than this, each target's details are folded under its overview line. */
export const DEFAULT_COLLAPSE_AFTER = 3;

export interface RenderOptions {
  maxSymbols?: number;
  /** Fold every target's details once there are more targets than this (0: always). */
  collapseAfter?: number;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function short(sha: string | null | undefined): string {
  return sha ? sha.slice(0, 7) : '';
}

interface RegionRow {
  name: string;
  used: number;
  limit: number;
  /** null: no parent report to compare with. */
  change: number | null;
}

/**
 * Every region of the target: the server's full list when it sends one, else (other servers)
 * the modified regions, the only ones the MemBrowse shape carries.
 */
export function regionRows(target: SummaryTarget): RegionRow[] {
  if (target.regions) {
    return target.regions.map((r) => ({
      name: r.name,
      used: r.used_size,
      limit: r.limit_size,
      change: r.change,
    }));
  }
  return (target.changes_summary?.changes?.regions?.modified ?? []).map((r) => ({
    name: r.name,
    used: r.used_size ?? 0,
    limit: r.limit_size ?? 0,
    change: (r.used_size ?? 0) - (r.old?.used_size ?? r.used_size ?? 0),
  }));
}

function usage(row: RegionRow): string {
  return row.limit > 0 ? percent((row.used / row.limit) * 100) : '—';
}

/** `FLASH 44.1% (+13 B)`: a region in one phrase, for overviews and commit statuses. */
export function regionPhrase(row: RegionRow): string {
  const change = row.change === null ? '' : ` (${delta(row.change)})`;
  return `${row.name} ${row.limit > 0 ? usage(row) : bytes(row.used)}${change}`;
}

function sectionChange(s: SectionChange): number {
  return (s.size ?? 0) - (s.old?.size ?? s.size ?? 0);
}

/** Regions with their changed sections indented under each, so a delta is explained in place. */
function regionTable(target: SummaryTarget): string[] {
  const rows = regionRows(target);
  if (rows.length === 0) return [];
  const sections = target.changes_summary?.changes?.sections?.modified ?? [];
  const lines = ['| Region | Used | Change | Size | Utilization |', '|---|--:|--:|--:|--:|'];
  for (const row of rows) {
    const change = row.change === null ? '—' : delta(row.change);
    lines.push(
      `| **${cell(row.name)}** | ${bytes(row.used)} | ${change} | ${row.limit > 0 ? bytes(row.limit) : '—'} | ${usage(row)} |`,
    );
    for (const s of sections.filter((s) => s.region === row.name)) {
      lines.push(
        `| ↳ \`${cell(s.name)}\` | ${bytes(s.size ?? 0)} | ${delta(sectionChange(s))} | | |`,
      );
    }
  }
  // Sections of regions the list does not name (another server's partial answer).
  const named = new Set(rows.map((r) => r.name));
  for (const s of sections.filter((s) => !named.has(s.region))) {
    lines.push(
      `| ↳ \`${cell(s.name)}\` (${cell(s.region ?? '')}) | ${bytes(s.size ?? 0)} | ${delta(sectionChange(s))} | | |`,
    );
  }
  return lines;
}

type Kind = 'added' | 'removed' | 'modified' | 'moved';

function symbolChange(row: SymbolChangeRow, kind: Kind): number {
  if (typeof row.delta === 'number') return row.delta;
  const size = row.size ?? 0;
  if (kind === 'added') return size;
  if (kind === 'removed') return -size;
  return size - (row.old?.size ?? size);
}

/** What happened to a symbol, in words: a modified symbol grew or shrank. */
function verb(kind: Kind, change: number): string {
  if (kind !== 'modified') return kind;
  return change > 0 ? 'grown' : change < 0 ? 'shrunk' : 'modified';
}

/** The largest symbol changes first (by absolute delta); moves without a size change last. */
function symbolTable(target: SummaryTarget, maxSymbols: number): string[] {
  const symbols = target.changes_summary?.changes?.symbols;
  if (!symbols || maxSymbols <= 0) return [];
  const rows = (['added', 'removed', 'modified', 'moved'] as Kind[]).flatMap((kind) =>
    (symbols[kind] ?? []).map((row) => ({ kind, row, change: symbolChange(row, kind) })),
  );
  if (rows.length === 0) return [];
  rows.sort(
    (a, b) => Math.abs(b.change) - Math.abs(a.change) || a.row.name.localeCompare(b.row.name),
  );
  const shown = rows.slice(0, maxSymbols).map(({ kind, row, change }) => {
    const section =
      kind === 'moved' && row.old?.section
        ? `${row.old.section} → ${row.section}`
        : (row.section ?? '');
    const before = kind === 'added' ? '—' : bytes(row.old?.size ?? row.size ?? 0);
    const after = kind === 'removed' ? '—' : bytes(row.size ?? 0);
    return `| ${verb(kind, change)} | \`${cell(row.name)}\` | ${cell(section)} | ${before} | ${after} | ${delta(change)} |`;
  });
  const more =
    rows.length > maxSymbols
      ? ['', `…and ${rows.length - maxSymbols} more symbol changes in the comparison.`]
      : [];
  return [
    `**Symbol changes** (${rows.length}, largest first)`,
    '',
    '| Change | Symbol | Section | Before | After | Delta |',
    '|---|---|---|--:|--:|--:|',
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

/** Why a target shows no deltas, when that is not simply "nothing changed". */
function comparisonNote(target: SummaryTarget): string[] {
  if (target.kind === 'build_failed') return ['**The build of this commit failed.**'];
  const rows = regionRows(target);
  if (target.parent_sha === null) return ['First report of this target: nothing to compare with.'];
  if (rows.length > 0 && rows.every((r) => r.change === null)) {
    return [
      `No report of the base commit \`${short(target.parent_sha)}\` for this target yet, so nothing to compare with.`,
    ];
  }
  return [];
}

function alertsOf(target: SummaryTarget): BudgetAlert[] {
  return target.alerts?.budgets ?? [];
}

/** One line per target: its state and regions, used in the overview and folded summaries. */
export function targetHeadline(target: SummaryTarget): string {
  if (target.kind === 'build_failed') return 'build failed';
  const alerts = alertsOf(target).length;
  const regions = regionRows(target).map(regionPhrase).join(', ');
  const state = alerts > 0 ? `:warning: ${alerts} budget(s) exceeded · ` : '';
  return `${state}${regions || 'no regions'}`;
}

function targetBody(target: SummaryTarget, options: Required<RenderOptions>): string {
  const blocks = [
    alertList(alertsOf(target)),
    comparisonNote(target),
    regionTable(target),
    symbolTable(target, options.maxSymbols),
  ].filter((b) => b.length > 0);
  return blocks.length > 0 ? blocks.map((b) => b.join('\n')).join('\n\n') : 'No memory changes.';
}

function link(target: SummaryTarget): string {
  return target.comparison_url ? ` ([comparison](${target.comparison_url}))` : '';
}

export function renderTarget(target: SummaryTarget, options: RenderOptions = {}): string {
  return `### ${target.target_name}${link(target)}\n\n${targetBody(target, withDefaults(options))}`;
}

/** A target folded under its headline; open when a budget is exceeded, so alerts stay visible. */
function foldedTarget(target: SummaryTarget, options: Required<RenderOptions>): string {
  const open = alertsOf(target).length > 0 || target.kind === 'build_failed' ? ' open' : '';
  return [
    `<details${open}><summary><b>${escapeHtml(target.target_name)}</b> — ${escapeHtml(targetHeadline(target))}</summary>`,
    '',
    `[comparison](${target.comparison_url || '#'})`,
    '',
    targetBody(target, options),
    '',
    '</details>',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function overviewTable(targets: SummaryTarget[]): string {
  return [
    '| Target | Regions | Budgets |',
    '|---|---|---|',
    ...targets.map((t) => {
      const alerts = alertsOf(t).length;
      const state =
        t.kind === 'build_failed'
          ? ':x: build failed'
          : alerts > 0
            ? `:warning: ${alerts} exceeded`
            : ':white_check_mark:';
      const name = t.comparison_url
        ? `[${cell(t.target_name)}](${t.comparison_url})`
        : cell(t.target_name);
      return `| ${name} | ${cell(regionRows(t).map(regionPhrase).join(', ') || '—')} | ${state} |`;
    }),
  ].join('\n');
}

function withDefaults(options: RenderOptions): Required<RenderOptions> {
  return {
    maxSymbols: options.maxSymbols ?? DEFAULT_MAX_SYMBOLS,
    collapseAfter: options.collapseAfter ?? DEFAULT_COLLAPSE_AFTER,
  };
}

/** Values a custom template may use as `{{ name }}`. */
export function templateValues(
  summary: Summary,
  options: RenderOptions = {},
): Record<string, string> {
  const full = withDefaults(options);
  const targets = summary.targets ?? [];
  const alerts = targets.reduce((n, t) => n + alertsOf(t).length, 0);
  const folded = targets.length > full.collapseAfter;
  const details = folded
    ? targets.map((t) => foldedTarget(t, full)).join('\n\n')
    : targets.map((t) => renderTarget(t, full)).join('\n\n');
  return {
    marker: COMMENT_MARKER,
    commit: summary.commit_sha ?? '',
    short_commit: short(summary.commit_sha),
    pr_number:
      summary.pr_number === null || summary.pr_number === undefined
        ? ''
        : String(summary.pr_number),
    dashboard_url: summary.dashboard_url ?? '',
    alert_count: String(alerts),
    target_count: String(targets.length),
    overview: targets.length > 0 ? overviewTable(targets) : '',
    targets: targets.length > 0 ? details : 'No targets reported this commit yet.',
  };
}

export const DEFAULT_TEMPLATE = `{{ marker }}
## Memtrail memory report

{{ targets }}
`;

/** The default layout once targets are folded: the overview table leads. */
export const DEFAULT_FOLDED_TEMPLATE = `{{ marker }}
## Memtrail memory report

{{ overview }}

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
  summary: Summary,
  template?: string,
  options: RenderOptions = {},
): string {
  const full = withDefaults(options);
  const folded = (summary.targets ?? []).length > full.collapseAfter;
  const chosen = template ?? (folded ? DEFAULT_FOLDED_TEMPLATE : DEFAULT_TEMPLATE);
  const text = renderTemplate(chosen, templateValues(summary, full));
  return text.includes(COMMENT_MARKER) ? text : `${COMMENT_MARKER}\n${text}`;
}
