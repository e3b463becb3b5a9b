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
import {
  SymbolStore,
  type GroupRow,
  type ReportVersion,
  type SectionBytes,
} from './symbol-store.js';

/** Prefix of the stand-in symbols that carry unchanged bytes; never returned (always unchanged). */
const UNCHANGED = '\u0000unchanged';

/**
 * Server-side diffs with the diff engine of @memtrail/report (the same cascade the CLI shows).
 * Only name groups that differ leave ClickHouse: the rest is, per section and region, one
 * stand-in symbol of the same size on both sides, so section padding and every total still
 * reconcile exactly while 40k-symbol reports move a few hundred rows (see docs/query.md).
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
      : await this.reducedReports(a, b, plan);
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

  private async layouts(
    a: ReportVersion,
    b: ReportVersion,
    plan: RegionPlan,
  ): Promise<[Record<string, ReportRegion>, Record<string, ReportRegion>, SectionBytes[]]> {
    const { regions, sections, bytes } = await this.store.layouts(a, b);
    const build = (reportId: string) => {
      const layout: Record<string, ReportRegion> = {};
      for (const r of regions) {
        if (r.report_id !== reportId) continue;
        layout[r.name] = {
          address: r.address,
          limit_size: r.limit_size,
          type: r.type,
          used_size: r.used_size,
          free_size: r.free_size,
          utilization_percent: r.limit_size ? (r.used_size / r.limit_size) * 100 : 0,
          sections: [],
        };
      }
      for (const s of sections) {
        if (s.report_id !== reportId) continue;
        layout[s.region]?.sections.push({
          name: s.name,
          address: s.address,
          size: s.size,
          type: s.type,
          end_address: s.address + s.size,
        });
      }
      return layout;
    };
    const canonical = bytes.map((b) => ({ ...b, region: plan.canonical(b.region) }));
    return [plan.mergeLayout(build(a.reportId)), plan.mergeLayout(build(b.reportId)), canonical];
  }

  private async fullReports(
    a: ReportVersion,
    b: ReportVersion,
    plan: RegionPlan,
    planKey: string,
  ): Promise<[MemoryReport, MemoryReport]> {
    const [[oldLayout, newLayout], oldSymbols, newSymbols] = await Promise.all([
      this.layouts(a, b, plan),
      this.symbols.get(a, plan, planKey),
      this.symbols.get(b, plan, planKey),
    ]);
    return [report(oldLayout, oldSymbols.rows), report(newLayout, newSymbols.rows)];
  }

  private async reducedReports(
    a: ReportVersion,
    b: ReportVersion,
    plan: RegionPlan,
  ): Promise<[MemoryReport, MemoryReport]> {
    const [[oldLayout, newLayout, bytes], groups, oldRoot, newRoot] = await Promise.all([
      this.layouts(a, b, plan),
      this.store.differingGroups(a, b),
      this.roots.of(plan, a),
      this.roots.of(plan, b),
    ]);
    const oldSide = new FetchedSide(plan, oldRoot);
    const newSide = new FetchedSide(plan, newRoot);
    for (const g of groups) {
      for (const row of g.old_rows) oldSide.add(g.name, row);
      for (const row of g.new_rows) newSide.add(g.name, row);
    }
    return [
      report(oldLayout, [...oldSide.symbols, ...oldSide.standIns(bytes, a.reportId, oldLayout)]),
      report(newLayout, [...newSide.symbols, ...newSide.standIns(bytes, b.reportId, newLayout)]),
    ];
  }
}

/** Address of `section` in `region` (else anywhere, else 0: the symbols are unplaced anyway). */
function sectionStart(
  layout: Record<string, ReportRegion>,
  section: string,
  region: string,
): number {
  const inRegion = layout[region]?.sections.find((s) => s.name === section);
  if (inRegion) return inRegion.address;
  for (const r of Object.values(layout)) {
    const found = r.sections.find((s) => s.name === section);
    if (found) return found.address;
  }
  return 0;
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

const sectionKey = (section: string, region: string) => `${section}\u0000${region}`;

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

/** The symbols of differing groups on one side, and their bytes per section and region. */
class FetchedSide {
  readonly symbols: ReportSymbol[] = [];
  private readonly bytes = new Map<string, number>();

  constructor(
    private readonly plan: RegionPlan,
    /** The side's build folder, stripped from its source paths. */
    private readonly root: string,
  ) {}

  add(name: string, row: GroupRow): void {
    const [address, size, type, section, stored, source, archive, object_file, binding] = row;
    const region = this.plan.canonical(stored);
    this.symbols.push({
      name,
      address,
      size,
      type,
      section,
      source_file: relativeSource(source, this.root),
      archive,
      object_file,
      binding,
    });
    const key = sectionKey(section, region);
    this.bytes.set(key, (this.bytes.get(key) ?? 0) + size);
  }

  /**
   * Per section and region, the bytes of symbols left in ClickHouse (all bytes minus those
   * fetched) as one symbol at the start of that section in that region, so the engine's
   * placement counts them in the section instance where the real symbols lie.
   */
  standIns(
    all: SectionBytes[],
    reportId: string,
    layout: Record<string, ReportRegion>,
  ): ReportSymbol[] {
    return all
      .filter((b) => b.report_id === reportId)
      .map((b) => ({ b, rest: b.bytes - (this.bytes.get(sectionKey(b.section, b.region)) ?? 0) }))
      .filter(({ rest }) => rest !== 0)
      .map(({ b, rest }) => ({
        name: `${UNCHANGED} ${b.section} ${b.region}`,
        address: sectionStart(layout, b.section, b.region),
        size: rest,
        type: 'OBJECT',
        binding: 'LOCAL',
        section: b.section,
        source_file: '',
      }));
  }
}
