import { Inject, Injectable } from '@nestjs/common';
import type { GrowerRow, GrowersData, GrowersRequest } from '@memtrail/contracts';
import { DiffService } from './diff.service.js';
import { commitInfo, type ReportRecord } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { versionOf } from './report.service.js';
import { badRequest } from './errors.js';
import { SourceRoots } from './source-roots.js';
import { SymbolStore } from '../store/symbol-store.js';
import { relativeSource } from '@memtrail/report';

/**
 * Largest growth and shrink between two commits, or between the first and last report of a
 * branch in a time window: per symbol (from the diff, so matching follows the diff cascade) or
 * per source file.
 */
@Injectable()
export class GrowersService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(DiffService) private readonly diffs: DiffService,
    @Inject(SymbolStore) private readonly store: SymbolStore,
    @Inject(SourceRoots) private readonly roots: SourceRoots,
  ) {}

  async growers(req: GrowersRequest): Promise<GrowersData> {
    const target = await this.reports.target(req);
    const [base, head] =
      req.branch !== undefined
        ? await this.reports.branchEnds(
            target,
            req.branch,
            req.from ? new Date(req.from) : null,
            req.to ? new Date(req.to) : null,
          )
        : await Promise.all([
            this.reports.report(target, req.baseSha!),
            this.reports.report(target, req.headSha!),
          ]);
    const rows =
      req.by === 'file' ? await this.byFile(base, head) : await this.bySymbol(base, head);
    const growers = rows.filter((r) => r.delta > 0).sort((a, b) => b.delta - a.delta);
    const shrinkers = rows.filter((r) => r.delta < 0).sort((a, b) => a.delta - b.delta);
    return {
      base: commitInfo(base.commit),
      head: commitInfo(head.commit),
      by: req.by,
      growers: growers.slice(0, req.limit),
      shrinkers: shrinkers.slice(0, req.limit),
      net_delta: rows.reduce((sum, r) => sum + r.delta, 0),
    };
  }

  private async bySymbol(base: ReportRecord, head: ReportRecord): Promise<GrowerRow[]> {
    const { diff } = await this.diffs.between(base, head, false);
    return diff.symbols.map((s) => ({
      name: s.name,
      old_size: s.old?.size ?? 0,
      new_size: s.new?.size ?? 0,
      delta: s.delta,
      status: s.status,
    }));
  }

  private async byFile(base: ReportRecord, head: ReportRecord): Promise<GrowerRow[]> {
    const a = versionOf(base);
    const b = versionOf(head);
    if (!a || !b) throw badRequest('Both commits must be ingested to compare their files');
    const [rows, oldRoot, newRoot] = await Promise.all([
      this.store.fileDeltas(a, b),
      this.roots.of(head.plan, a),
      this.roots.of(head.plan, b),
    ]);
    // Paths relative to each side's build folder, so a checkout elsewhere changes no file.
    const files = new Map<string, { old_size: number; new_size: number }>();
    const add = (path: string, root: string, side: 'old_size' | 'new_size', size: number) => {
      if (size === 0) return;
      const name = relativeSource(path, root) || '(unknown)';
      const file = files.get(name) ?? { old_size: 0, new_size: 0 };
      file[side] += size;
      files.set(name, file);
    };
    for (const r of rows) {
      add(r.source_file, oldRoot, 'old_size', r.old_size);
      add(r.source_file, newRoot, 'new_size', r.new_size);
    }
    return [...files]
      .filter(([, f]) => f.old_size !== f.new_size)
      .map(([name, f]) => ({
        name,
        ...f,
        delta: f.new_size - f.old_size,
        status: f.old_size === 0 ? 'added' : f.new_size === 0 ? 'removed' : 'modified',
      }));
  }
}
