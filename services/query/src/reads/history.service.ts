import { Inject, Injectable } from '@nestjs/common';
import type { HistoryData, HistoryEvent, HistoryRequest, SeriesCommit } from '@memtrail/contracts';
import { ReportsRepository } from './reports.repository.js';
import { seriesCommit, SelectionRepository } from './selection.repository.js';
import { SymbolStore, type VersionedSize } from './symbol-store.js';

/**
 * One symbol's (or source file's) size along a branch or chain. Postgres picks the reports and
 * the version of each that is complete; ClickHouse gives the subject's size in every version
 * of the target in one range read; the two are joined here. Reports still being ingested for
 * the first time (and failed builds) have no rows yet and are left out rather than shown as 0.
 */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SelectionRepository) private readonly selection: SelectionRepository,
    @Inject(SymbolStore) private readonly store: SymbolStore,
  ) {}

  symbol(req: HistoryRequest): Promise<HistoryData> {
    return this.history(req, (p, t) => this.store.symbolSizes(p, t, req.subject));
  }

  file(req: HistoryRequest): Promise<HistoryData> {
    return this.history(req, (p, t) => this.store.fileSizes(p, t, req.subject));
  }

  private async history(
    req: HistoryRequest,
    sizes: (projectId: string, targetId: string) => Promise<VersionedSize[]>,
  ): Promise<HistoryData> {
    const target = await this.reports.target(req);
    const [{ reports, truncated }, rows] = await Promise.all([
      this.selection.select(target, req.selection),
      sizes(target.projectId, target.id),
    ]);
    const byVersion = new Map(rows.map((r) => [`${r.report_id}/${r.ingest_version}`, r]));
    const readable = reports.filter(
      (r) => r.ingested_version !== null && r.kind !== 'build_failed',
    );
    const found = readable.map((r) => byVersion.get(`${r.id}/${r.ingested_version}`));
    const commits = readable.map(seriesCommit);
    const size = found.map((f) => f?.size ?? 0);
    const present = found.map((f) => f !== undefined);
    return {
      subject: req.subject,
      commits,
      size,
      count: found.map((f) => f?.count ?? 0),
      present,
      ...events(commits, size, present),
      truncated,
    };
  }
}

function events(
  commits: SeriesCommit[],
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
      committed_at: commits[i]!.committed_at,
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
