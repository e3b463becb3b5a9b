import type {
  BudgetAlert,
  ChangesSummary,
  MemoryReport,
  RegionPlan,
  RegionPresentation,
  UploadChanges,
} from '@memtrail/contracts';
import { buildRoot, relativeSource } from '@memtrail/report';
import type { RegionTotal, Totals } from './totals.js';

// Upload answers and PR-comment summaries show regions as the target's region configuration
// does (RegionPlan): merged regions compared as one, budgets checked against the merged
// figures, hidden regions left out and the others under their display names.

export type ShownRegions = Record<string, RegionTotal & RegionPresentation>;

/** A report as the configuration shows it (merged regions, repository-relative sources). */
export function shownReport(plan: RegionPlan, report: MemoryReport): MemoryReport {
  const symbols = report.symbols ?? [];
  const root = plan.sourceRoot ?? buildRoot(symbols.map((s) => s.source_file ?? ''));
  return {
    ...report,
    memory_layout: plan.mergeLayout(report.memory_layout ?? {}),
    symbols: root
      ? symbols.map((s) => ({ ...s, source_file: relativeSource(s.source_file ?? '', root) }))
      : symbols,
  };
}

/** Stored region totals merged and presented, keyed by the merged name: what budgets compare. */
export function shownRegions(plan: RegionPlan, totals: Totals): ShownRegions {
  const rows = plan.fold(Object.entries(totals.regions).map(([name, r]) => ({ ...r, name })));
  return Object.fromEntries(rows.map(({ name, ...r }) => [name, r]));
}

/**
 * The answer's changes as shown: regions the configuration hides (and their sections) left
 * out, the others under their display names.
 */
export function presentChanges(
  plan: RegionPlan,
  regions: ShownRegions,
  result: { changes: UploadChanges; changes_summary: ChangesSummary },
): { changes: UploadChanges; changes_summary: ChangesSummary } {
  const shown = (name: string) => !(regions[name]?.hidden ?? false);
  const label = (name: string) => plan.displayName(name);
  const rename = <T extends { name: string }>(list: T[] | undefined) =>
    list?.filter((r) => shown(r.name)).map((r) => ({ ...r, name: label(r.name) }));
  const inRegion = <T extends { region: string }>(list: T[] | undefined) =>
    list?.filter((s) => shown(s.region)).map((s) => ({ ...s, region: label(s.region) }));
  const { changes } = result;
  return {
    changes: {
      regions: {
        ...(changes.regions.added ? { added: rename(changes.regions.added) } : {}),
        ...(changes.regions.removed ? { removed: rename(changes.regions.removed) } : {}),
        modified: rename(changes.regions.modified)!,
      },
      sections: {
        ...(changes.sections.added ? { added: inRegion(changes.sections.added) } : {}),
        ...(changes.sections.removed ? { removed: inRegion(changes.sections.removed) } : {}),
        modified: inRegion(changes.sections.modified)!,
      },
      symbols: changes.symbols,
    },
    changes_summary: Object.fromEntries(
      Object.entries(result.changes_summary)
        .filter(([name]) => shown(name))
        .map(([name, change]) => [label(name), change]),
    ),
  };
}

/** Budget alerts with their regions under display names. */
export function presentAlerts(plan: RegionPlan, alerts: BudgetAlert[]): BudgetAlert[] {
  const relabel = (figures: Record<string, number>) =>
    Object.fromEntries(Object.entries(figures).map(([name, n]) => [plan.displayName(name), n]));
  return alerts.map((alert) => ({
    ...alert,
    exceeded_regions: alert.exceeded_regions.map((name) => plan.displayName(name)),
    current_usage: relabel(alert.current_usage),
    limits: relabel(alert.limits),
    exceeded_by: relabel(alert.exceeded_by),
  }));
}
