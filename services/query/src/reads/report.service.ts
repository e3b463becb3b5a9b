import { Inject, Injectable } from '@nestjs/common';
import type {
  CommitReportData,
  RegionPlan,
  ReportRegionRow,
  ReportRequest,
  ReportSectionRow,
  TargetRef,
  TreeData,
  TreeRequest,
} from '@memtrail/contracts';
import { badRequest } from './errors.js';
import { commitInfo, reportInfo, storedRegions, type ReportRecord } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { ReportSymbolsCache, type ReportSymbols } from './report-symbols.cache.js';
import { SymbolStore, type ReportVersion } from '../store/symbol-store.js';
import { buildTree } from './tree.js';

interface StoredRegion {
  address?: number;
  type?: string;
}

export function versionOf(r: ReportRecord): ReportVersion | null {
  return r.ingestedVersion === null
    ? null
    : { projectId: r.projectId, targetId: r.targetId, reportId: r.id, version: r.ingestedVersion };
}

/**
 * One commit's memory report: regions, sections and (on request) every symbol, as the target's
 * region configuration shows them (regions merged, ordered and presented; sections and symbols
 * under the merged names; source paths relative to the build folder).
 */
@Injectable()
export class ReportService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SymbolStore) private readonly store: SymbolStore,
    @Inject(ReportSymbolsCache) private readonly symbols: ReportSymbolsCache,
  ) {}

  async find(ref: TargetRef, sha: string): Promise<ReportRecord> {
    return this.reports.report(await this.reports.target(ref), sha);
  }

  /** The report's symbols as shown; a report still being ingested for the first time has none. */
  shownSymbols(record: ReportRecord): Promise<ReportSymbols> | null {
    const version = versionOf(record);
    return version && this.symbols.get(version, record.plan, record.planKey);
  }

  async report(req: ReportRequest): Promise<CommitReportData> {
    const record = await this.find(req, req.sha);
    const version = versionOf(record);
    const { plan } = record;
    if (!version) {
      // Not ingested yet: the layout as uploaded; symbols follow once the worker has them.
      return {
        commit: commitInfo(record.commit),
        report: reportInfo(record),
        ...uploadedLayout(record, plan),
        symbols: null,
      };
    }
    const [regions, sections, symbols] = await Promise.all([
      this.store.regions(version),
      this.store.sections(version),
      req.includeSymbols ? this.shownSymbols(record) : null,
    ]);
    return {
      commit: commitInfo(record.commit),
      report: reportInfo(record),
      regions: plan.fold(regions),
      sections: sections.map((s) => ({ ...s, region: plan.canonical(s.region) })),
      symbols: symbols?.rows ?? null,
    };
  }

  /** The report grouped for treemaps and tables (see tree.ts). */
  async tree(req: TreeRequest): Promise<TreeData> {
    const record = await this.find(req, req.sha);
    const symbols = this.shownSymbols(record);
    if (!symbols) {
      throw badRequest(
        `Commit ${req.sha} of target ${req.target} is still being ingested; try again shortly`,
      );
    }
    return {
      commit_sha: req.sha,
      group_by: req.groupBy,
      tree: buildTree((await symbols).rows, req.groupBy, req.includeSymbols, record.plan),
    };
  }
}

/** Regions and sections from the totals the upload stored, for reports not yet ingested. */
function uploadedLayout(
  record: ReportRecord,
  plan: RegionPlan,
): {
  regions: CommitReportData['regions'];
  sections: ReportSectionRow[];
} {
  const stored = (record.regionTotals ?? {}) as Record<string, StoredRegion>;
  const regions = plan.fold(
    storedRegions(record.regionTotals).map((r): ReportRegionRow => ({
      ...r,
      address: stored[r.name]?.address ?? 0,
      type: stored[r.name]?.type ?? 'UNKNOWN',
    })),
  );
  const sections = Array.isArray(record.sectionTotals)
    ? (record.sectionTotals as ReportSectionRow[]).map((s) => ({
        name: s.name,
        region: plan.canonical(s.region),
        address: s.address,
        size: s.size,
        type: s.type,
      }))
    : [];
  return { regions, sections };
}
