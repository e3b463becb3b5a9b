import { Inject, Injectable } from '@nestjs/common';
import type { HistoryData, HistoryEvent, HistoryRequest } from '@memtrail/contracts';
import { stripCloneSuffixes } from '@memtrail/report';
import { ReportsRepository } from './reports.repository.js';
import { SelectionRepository } from './selection.repository.js';
import type { TimelineEntry } from './timeline.cache.js';
import { SymbolStore, type HistorySubject, type SubjectSize } from '../store/symbol-store.js';

/** A subject's size in one report version, and the names counted. */
interface Found extends SubjectSize {
  names?: string[];
}

/**
 * One symbol's (or source file's) size along a branch or chain. Postgres picks the reports and
 * the version of each that is complete; the store counts the blocks holding the subject in each
 * of those versions (docs/query.md). Reports still being ingested for the first time (and
 * failed builds) have no rows yet and are left out rather than shown as 0.
 */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SelectionRepository) private readonly selection: SelectionRepository,
    @Inject(SymbolStore) private readonly store: SymbolStore,
  ) {}

  /**
   * A symbol followed as the diff's cascade matches it: in a report that has the name, its
   * same-named symbols; in one that has not, the symbols whose names are equal without clone
   * suffixes (GCC's `.constprop.0` of a release, LTO's `.lto_priv.0`).
   */
  symbol(req: HistoryRequest): Promise<HistoryData> {
    const stem = stripCloneSuffixes(req.subject);
    return this.history(req, { by: 'name', stem }, (sizes) => {
      const family = [...sizes].filter(([name]) => stripCloneSuffixes(name) === stem);
      const exact = family.filter(([name]) => name === req.subject);
      const counted = exact.length ? exact : family;
      if (counted.length === 0) return undefined;
      return {
        size: counted.reduce((sum, [, s]) => sum + s.size, 0),
        count: counted.reduce((sum, [, s]) => sum + s.count, 0),
        names: counted.map(([name]) => name).sort(),
      };
    });
  }

  /** A source file by its path as stored in the reports. */
  file(req: HistoryRequest): Promise<HistoryData> {
    return this.history(req, { by: 'source_file', path: req.subject }, (sizes) =>
      sizes.get(req.subject),
    );
  }

  private async history(
    req: HistoryRequest,
    subject: HistorySubject,
    pick: (sizes: ReadonlyMap<string, SubjectSize>) => Found | undefined,
  ): Promise<HistoryData> {
    const target = await this.reports.target(req);
    const ref = { projectId: target.projectId, targetId: target.id };
    // The commits (Postgres) and the blocks holding the subject (ClickHouse) are independent.
    const [{ reports, truncated, timeline }, held] = await Promise.all([
      this.selection.select(target, req.selection),
      this.store.blocksHolding(ref, subject),
    ]);
    const readable = reports.filter(
      (r) => r.ingested_version !== null && r.kind !== 'build_failed',
    );
    const sizes = await this.store.subjectSizes(
      target.id,
      held,
      readable.map((r) => ({ reportId: r.id, version: r.ingested_version! })),
      timeline,
    );
    // Versions holding the subject alike share their sizes: pick once per distinct one.
    const picked = new Map<ReadonlyMap<string, SubjectSize>, Found | undefined>();
    const found = sizes.map((inVersion) => {
      if (!inVersion) return undefined;
      if (!picked.has(inVersion)) picked.set(inVersion, pick(inVersion));
      return picked.get(inVersion);
    });
    const size = found.map((f) => f?.size ?? 0);
    const present = found.map((f) => f !== undefined);
    // Names are listed only when they say more than "the name asked for, where present".
    const aliased = found.some((f) => f?.names?.some((name) => name !== req.subject));
    return {
      subject: req.subject,
      shas: readable.map((r) => r.sha),
      size,
      count: found.map((f) => f?.count ?? 0),
      present,
      ...(aliased ? { names: found.map((f) => f?.names ?? []) } : {}),
      ...events(readable, size, present),
      truncated,
    };
  }
}

function events(
  commits: TimelineEntry[],
  size: number[],
  present: boolean[],
): Pick<HistoryData, 'appeared' | 'last_change' | 'largest_change'> {
  let appeared: HistoryEvent | null = null;
  let lastChange: HistoryEvent | null = null;
  let largest: HistoryEvent | null = null;
  const event = (i: number): HistoryEvent => {
    const before = i > 0 ? size[i - 1]! : 0;
    return {
      sha: commits[i]!.sha,
      committed_at: commits[i]!.committed_at?.toISOString() ?? null,
      size_before: before,
      size_after: size[i]!,
      delta: size[i]! - before,
    };
  };
  for (let i = 0; i < commits.length; i++) {
    if (present[i] && (i === 0 || !present[i - 1])) appeared = event(i);
    if (i > 0 && size[i] !== size[i - 1]) {
      const e = event(i);
      lastChange = e;
      if (!largest || Math.abs(e.delta) > Math.abs(largest.delta)) largest = e;
    }
  }
  return { appeared, last_change: lastChange, largest_change: largest };
}
