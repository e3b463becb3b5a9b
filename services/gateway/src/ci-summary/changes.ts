import type { ChangesSummary, MemoryReport, RegionPlan, UploadChanges } from '@memtrail/contracts';
import type { Logger } from '@nestjs/common';
import {
  readBlocks,
  readStoredEnvelope,
  readVersion,
  type Queryable,
  type StoredVersion,
} from '@memtrail/db';
import { diffReports, relativeSource, toChangesSummary, toUploadChanges } from '@memtrail/report';
import { reducedReports, withRegions, type VersionRecord } from '@memtrail/symbol-blocks';
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
 * The stored version a commit's footprint is compared with: its own if it was a full build,
 * its nearest full ancestor's if it was an identical one (whose footprint is its parent's),
 * none for a failed build or an unknown commit.
 */
export async function comparableVersion(
  db: Queryable,
  target: { projectId: string; targetId: string },
  sha: string | null,
): Promise<StoredVersion | null> {
  for (let depth = 0; sha && depth < 100; depth++) {
    // A commit is found by project and SHA, the key of its unique index.
    const { rows } = await db.query<{
      id: string;
      version: number;
      kind: string;
      parent_sha: string | null;
    }>(
      `SELECT r.id::text, r.version, r.kind::text, r.parent_sha FROM reports r
       JOIN commits c ON c.id = r.commit_id
       WHERE r.target_id = $1 AND c.project_id = $2 AND c.sha = $3`,
      [target.targetId, target.projectId, sha],
    );
    const report = rows[0];
    if (!report || report.kind === 'build_failed') return null;
    if (report.kind === 'full') return readVersion(db, report.id, report.version);
    sha = report.parent_sha;
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
  /** The target's region configuration: both sides are compared as it shows them. */
  plan: RegionPlan;
}

/**
 * Both stored versions as the configuration shows them, with the symbols the diff engine needs:
 * only those of blocks the versions do not share (and of names those hold), read from Postgres,
 * plus stand-ins for the rest — so a PR comment on a 40k-symbol build reads a few kilobytes.
 * When the two versions strip different build folders from their paths, shared blocks no longer
 * compare equal as shown, and the whole reports are read.
 */
async function shownVersions(
  db: Queryable,
  plan: RegionPlan,
  targetId: string,
  before: StoredVersion & { record: VersionRecord },
  now: StoredVersion & { record: VersionRecord },
): Promise<[MemoryReport, MemoryReport]> {
  const oldRoot = plan.sourceRoot ?? before.record.sourceRoot;
  const newRoot = plan.sourceRoot ?? now.record.sourceRoot;
  if (oldRoot !== newRoot) {
    const [a, b] = await Promise.all([readStoredEnvelope(db, before), readStoredEnvelope(db, now)]);
    return [shownReport(plan, a.memory_analysis), shownReport(plan, b.memory_analysis)];
  }
  const side = (v: StoredVersion & { record: VersionRecord }) => ({
    record: withRegions(v.record, (region) => plan.canonical(region)),
    layout: plan.mergeLayout(v.header.memory_analysis?.memory_layout ?? {}),
  });
  const [oldSide, newSide] = [side(before), side(now)];
  const [oldSymbols, newSymbols] = await reducedReports(oldSide, newSide, async (hashes) => {
    const blocks = await readBlocks(db, targetId, hashes);
    return (hash) => blocks.get(hash)!;
  });
  const shown = (
    v: StoredVersion,
    layout: MemoryReport['memory_layout'],
    symbols: MemoryReport['symbols'],
  ) => ({
    ...v.header.memory_analysis,
    memory_layout: layout,
    symbols: symbols.map((s) => ({
      ...s,
      source_file: relativeSource(s.source_file ?? '', oldRoot),
    })),
  });
  return [shown(before, oldSide.layout, oldSymbols), shown(now, newSide.layout, newSymbols)];
}

const withRecord = (v: StoredVersion | null): (StoredVersion & { record: VersionRecord }) | null =>
  v?.record ? (v as StoredVersion & { record: VersionRecord }) : null;

/**
 * Changes of a commit against its parent: with symbols from both stored versions when asked
 * and both are readable, else regions and sections from the stored totals. An unreadable
 * version only costs the symbol rows, and says why in the log.
 */
export async function changesAgainstParent(
  db: Queryable,
  commit: ComparedCommit,
  withSymbols: boolean,
  logger: Logger,
): Promise<{ changes: UploadChanges; changes_summary: ChangesSummary }> {
  const shown = (report: MemoryReport) => shownReport(commit.plan, report);
  if (!commit.parentTotals) return uploadChanges(shown(reportFromTotals(commit.totals)), null);
  if (withSymbols) {
    try {
      const now = withRecord(await comparableVersion(db, commit, commit.commitSha));
      const before = now && withRecord(await comparableVersion(db, commit, commit.parentSha));
      if (now && before) {
        const [parent, current] = await shownVersions(
          db,
          commit.plan,
          commit.targetId,
          before,
          now,
        );
        return uploadChanges(current, parent);
      }
    } catch (error) {
      logger.warn(
        `symbol changes of ${commit.commitSha} skipped, a stored version is unreadable: ${(error as Error).message}`,
      );
    }
  }
  return uploadChanges(
    shown(reportFromTotals(commit.totals)),
    shown(reportFromTotals(commit.parentTotals)),
  );
}
