import { Inject, Injectable } from '@nestjs/common';
import type { HistoryData, HistoryEvent, HistoryPoint, HistoryRequest } from '@memtrail/contracts';
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
      this.selection.select(target, req.selection, 'none'),
      sizes(target.projectId, target.id),
    ]);
    const bySide = new Map(rows.map((r) => [`${r.report_id}/${r.ingest_version}`, r]));
    const points: HistoryPoint[] = reports
      .filter((r) => r.ingested_version !== null && r.kind !== 'build_failed')
      .map((r) => {
        const found = bySide.get(`${r.report_id}/${r.ingested_version}`);
        return {
          ...seriesCommit(r),
          size: found?.size ?? 0,
          present: found !== undefined,
          count: found?.count ?? 0,
        };
      });
    return { subject: req.subject, points, ...events(points), truncated };
  }
}

function events(
  points: HistoryPoint[],
): Pick<HistoryData, 'appeared' | 'last_change' | 'largest_change'> {
  let appeared: HistoryEvent | null = null;
  let lastChange: HistoryEvent | null = null;
  let largest: HistoryEvent | null = null;
  points.forEach((p, i) => {
    const before = points[i - 1];
    if (p.present && (!before || !before.present)) appeared = event(p, before);
    if (before && p.size !== before.size) {
      const e = event(p, before);
      lastChange = e;
      if (!largest || Math.abs(e.delta) > Math.abs(largest.delta)) largest = e;
    }
  });
  return { appeared, last_change: lastChange, largest_change: largest };
}

function event(p: HistoryPoint, before: HistoryPoint | undefined): HistoryEvent {
  const sizeBefore = before?.size ?? 0;
  return {
    sha: p.sha,
    committed_at: p.committed_at,
    size_before: sizeBefore,
    size_after: p.size,
    delta: p.size - sizeBefore,
  };
}
