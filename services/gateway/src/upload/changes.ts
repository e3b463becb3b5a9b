import type { ChangesSummary, MemoryReport, RegionPlan, UploadChanges } from '@memtrail/contracts';
import type { Logger } from '@nestjs/common';
import { readStoredPayload, type PrismaClient } from '@memtrail/db';
import { diffReports, toChangesSummary, toUploadChanges } from '@memtrail/report';
import { shownReport } from './region-view.js';
import type { Totals } from './totals.js';

/** Symbol rows per change kind in an answer: the largest by |delta| (a PR comment shows few). */
export const MAX_SYMBOL_CHANGES = 200;

const NO_CHANGES: UploadChanges = {
  regions: { modified: [] },
  sections: { modified: [] },
  symbols: { added: [], removed: [], modified: [], moved: [] },
};

/** A symbol-less report from stored totals: enough for region and section changes. */
export function reportFromTotals(totals: Totals): MemoryReport {
  const layout: MemoryReport['memory_layout'] = {};
  for (const [name, r] of Object.entries(totals.regions)) {
    layout[name] = {
      address: r.address,
      limit_size: r.limit_size,
      type: r.type,
      used_size: r.used_size,
      free_size: r.free_size,
      utilization_percent: r.limit_size > 0 ? (r.used_size / r.limit_size) * 100 : 0,
      sections: [],
    };
  }
  for (const s of totals.sections) {
    layout[s.region]?.sections.push({
      name: s.name,
      address: s.address,
      size: s.size,
      type: s.type,
      end_address: s.address + s.size,
    });
  }
  return {
    file_path: null,
    architecture: null,
    entry_point: null,
    file_type: null,
    machine: null,
    symbols: [],
    program_headers: [],
    memory_layout: layout,
  };
}

/**
 * The upload answer's `changes` and `changes_summary`, from the same diff engine as the web's
 * comparison, so both agree. Without a parent there is nothing to compare with.
 */
export function uploadChanges(
  current: MemoryReport,
  parent: MemoryReport | null,
): { changes: UploadChanges; changes_summary: ChangesSummary } {
  if (!parent) return { changes: NO_CHANGES, changes_summary: {} };
  const diff = diffReports(parent, current);
  const changes = toUploadChanges(diff);
  for (const kind of ['added', 'removed', 'modified', 'moved'] as const) {
    changes.symbols[kind] = changes.symbols[kind]
      .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
      .slice(0, MAX_SYMBOL_CHANGES);
  }
  return { changes, changes_summary: toChangesSummary(diff) };
}

/**
 * The report a commit's footprint is compared with: its own if it was a full build, its
 * nearest full ancestor's if it was an identical one (whose footprint is its parent's), none
 * for a failed build or an unknown commit.
 */
export async function loadComparableReport(
  prisma: Pick<PrismaClient, 'report'>,
  target: { projectId: string; targetId: string },
  sha: string | null,
): Promise<MemoryReport | null> {
  const { projectId, targetId } = target;
  for (let depth = 0; sha && depth < 100; depth++) {
    // A commit is found by project and SHA, the key of its unique index.
    const report = await prisma.report.findFirst({
      where: { targetId, commit: { projectId, sha } },
      select: { kind: true, parentSha: true, payload: true },
    });
    if (!report || report.kind === 'build_failed') return null;
    if (report.kind === 'full') {
      return (await readStoredPayload(report.payload)).memory_analysis;
    }
    sha = report.parentSha;
  }
  return null;
}

export interface ComparedCommit {
  projectId: string;
  targetId: string;
  commitSha: string;
  parentSha: string | null;
  totals: Totals;
  parentTotals: Totals | null;
  /** The commit's own report when already at hand (an upload being answered). */
  report?: MemoryReport;
  /** The target's region configuration: both sides are compared as it shows them. */
  plan: RegionPlan;
}

/**
 * Changes of a commit against its parent: with symbols from both stored reports when asked and
 * both are readable, else regions and sections from the stored totals. An unreadable payload
 * only costs the symbol rows, and says why in the log.
 */
export async function changesAgainstParent(
  prisma: Pick<PrismaClient, 'report'>,
  commit: ComparedCommit,
  withSymbols: boolean,
  logger: Logger,
): Promise<{ changes: UploadChanges; changes_summary: ChangesSummary }> {
  const shown = (report: MemoryReport) => shownReport(commit.plan, report);
  if (!commit.parentTotals) return uploadChanges(shown(reportFromTotals(commit.totals)), null);
  if (withSymbols) {
    try {
      const current =
        commit.report ?? (await loadComparableReport(prisma, commit, commit.commitSha));
      const parent = current && (await loadComparableReport(prisma, commit, commit.parentSha));
      if (current && parent) return uploadChanges(shown(current), shown(parent));
    } catch (error) {
      logger.warn(
        `symbol changes of ${commit.commitSha} skipped, a stored report is unreadable: ${(error as Error).message}`,
      );
    }
  }
  return uploadChanges(
    shown(reportFromTotals(commit.totals)),
    shown(reportFromTotals(commit.parentTotals)),
  );
}
