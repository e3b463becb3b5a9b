import { Inject, Injectable } from '@nestjs/common';
import {
  isPlaceholderRegion,
  type CommitDiffData,
  type DiffRequest,
  type MemoryReport,
  type RegionDelta,
  type RegionPlan,
  type ReportRegion,
  type ReportSymbol,
} from '@memtrail/contracts';
import { diffReports, relativeSource } from '@memtrail/report';
import { badRequest } from './errors.js';
import { commitInfo, reportInfo, type ReportRecord } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportSymbolsCache } from './report-symbols.cache.js';
import { versionOf } from './report.service.js';
import { SourceRoots } from './source-roots.js';
import { reducedReports, withRegions } from '@memtrail/symbol-blocks';
import { SymbolStore, type LoadedVersion, type ReportVersion } from '../store/symbol-store.js';

/**
 * Server-side diffs with the diff engine of @memtrail/report (the same cascade the CLI shows).
 * Only the names held in blocks the two builds do not share reach the engine: the rest is, per
 * section and region, one stand-in symbol of the same size on both sides, so section padding and
 * every total still reconcile exactly while 40k-symbol reports read a few blocks (docs/query.md).
 * Both reports are read as the region configuration shows them (merged regions, source paths
 * relative to each report's build folder) before they are compared, so a region renamed in the
 * configuration or a checkout in another folder moves nothing.
 */
@Injectable()
export class DiffService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SymbolStore) private readonly store: SymbolStore,
    @Inject(ReportSymbolsCache) private readonly symbols: ReportSymbolsCache,
    @Inject(SourceRoots) private readonly roots: SourceRoots,
  ) {}

  async diff(req: DiffRequest): Promise<CommitDiffData> {
    const target = await this.reports.target(req);
    const [base, head] = await Promise.all([
      this.reports.report(target, req.baseSha),
      this.reports.report(target, req.headSha),
    ]);
    return this.between(base, head, req.allSymbols, req.zeroSize ?? false);
  }

  async between(
    base: ReportRecord,
    head: ReportRecord,
    allSymbols: boolean,
    zeroSize = false,
  ): Promise<CommitDiffData> {
    const a = ingested(base);
    const b = ingested(head);
    const { plan, planKey } = head;
    const [oldReport, newReport] = allSymbols
      ? await this.fullReports(a, b, plan, planKey)
      : await this.reducedReports(a, b, plan, planKey);
    const diff = diffReports(oldReport, newReport, {
      includeUnchanged: allSymbols,
      includeZeroSize: zeroSize,
    });
    return {
      base: { commit: commitInfo(base.commit), report: reportInfo(base) },
      head: { commit: commitInfo(head.commit), report: reportInfo(head) },
      diff: { ...diff, regions: presentRegions(plan, diff.regions) },
      all_symbols: allSymbols,
    };
  }

  private async fullReports(
    a: ReportVersion,
    b: ReportVersion,
    plan: RegionPlan,
    planKey: string,
  ): Promise<[MemoryReport, MemoryReport]> {
    const [oldVersion, newVersion, oldSymbols, newSymbols] = await Promise.all([
      this.store.version(a),
      this.store.version(b),
      this.symbols.get(a, plan, planKey),
      this.symbols.get(b, plan, planKey),
    ]);
    return [
      report(layoutOf(plan, oldVersion), oldSymbols.rows),
      report(layoutOf(plan, newVersion), newSymbols.rows),
    ];
  }

  /**
   * The reports reduced to the names held in blocks the two versions do not share (read from
   * memory or ClickHouse), plus stand-ins for the rest (@memtrail/symbol-blocks). Both sides are
   * first put as the configuration shows them — regions merged under their canonical names —
   * so a renamed region shares its blocks. Source paths are made relative afterwards, which
   * keeps shared blocks equal only when both sides strip the same build folder; otherwise the
   * full reports are compared.
   */
  private async reducedReports(
    a: ReportVersion,
    b: ReportVersion,
    plan: RegionPlan,
    planKey: string,
  ): Promise<[MemoryReport, MemoryReport]> {
    const [oldVersion, newVersion, oldRoot, newRoot] = await Promise.all([
      this.store.version(a),
      this.store.version(b),
      this.roots.of(plan, a),
      this.roots.of(plan, b),
    ]);
    if (oldRoot !== newRoot) return this.fullReports(a, b, plan, planKey);
    const oldSide = {
      record: withRegions(oldVersion.record, (r) => plan.canonical(r)),
      layout: layoutOf(plan, oldVersion),
    };
    const newSide = {
      record: withRegions(newVersion.record, (r) => plan.canonical(r)),
      layout: layoutOf(plan, newVersion),
    };
    const [oldSymbols, newSymbols] = await reducedReports(oldSide, newSide, (hashes) =>
      this.store.lookup(a, hashes),
    );
    const relative = (s: ReportSymbol) => ({
      ...s,
      source_file: relativeSource(s.source_file ?? '', oldRoot),
    });
    return [
      report(oldSide.layout, oldSymbols.map(relative)),
      report(newSide.layout, newSymbols.map(relative)),
    ];
  }
}

/**
 * A version's layout for the engine, as the read of the former per-report tables gave it:
 * regions and their sections in address order (then name), the configuration's merges applied.
 */
function layoutOf(plan: RegionPlan, version: LoadedVersion): Record<string, ReportRegion> {
  const byAddress = <T extends { address: number }>(
    x: T & { name: string },
    y: T & { name: string },
  ) => x.address - y.address || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
  const regions = Object.entries(version.layout)
    .map(([name, r]) => ({ name, ...r }))
    .sort(byAddress);
  const layout: Record<string, ReportRegion> = {};
  for (const r of regions) {
    layout[r.name] = {
      address: r.address,
      limit_size: r.limit_size,
      type: r.type ?? 'UNKNOWN',
      used_size: r.used_size,
      free_size: r.limit_size - r.used_size,
      utilization_percent: r.limit_size ? (r.used_size / r.limit_size) * 100 : 0,
      sections: [...(r.sections ?? [])].sort(byAddress).map((s) => ({
        name: s.name,
        address: s.address,
        size: s.size,
        type: s.type ?? 'data',
        end_address: s.address + s.size,
      })),
    };
  }
  return plan.mergeLayout(layout);
}

function ingested(r: ReportRecord): ReportVersion {
  const v = versionOf(r);
  if (!v) {
    throw badRequest(
      `Commit ${r.commit.sha} of target ${r.targetName} is still being ingested; try again shortly`,
    );
  }
  return v;
}

function report(layout: Record<string, ReportRegion>, symbols: ReportSymbol[]): MemoryReport {
  return {
    file_path: null,
    architecture: null,
    entry_point: null,
    file_type: null,
    machine: null,
    program_headers: [],
    memory_layout: layout,
    symbols,
  };
}

/** Region deltas with their presentation, in display order. */
function presentRegions(
  plan: RegionPlan,
  regions: RegionDelta[],
): CommitDiffData['diff']['regions'] {
  return plan
    .sort(
      regions.map((r) => {
        const sides = [r.old, r.new].filter((side) => side !== null);
        return {
          ...r,
          address: (r.new ?? r.old)?.address,
          ...plan.presentation(
            r.name,
            sides.every(isPlaceholderRegion),
            sides.every((side) => side.used_size === 0),
          ),
        };
      }),
    )
    .map(({ address: _address, ...r }) => r);
}
