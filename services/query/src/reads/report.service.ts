import { Inject, Injectable } from '@nestjs/common';
import type {
  CommitReportData,
  ReportRegionRow,
  ReportRequest,
  ReportSectionRow,
  TargetRef,
  TreeData,
  TreeRequest,
} from '@memtrail/contracts';
import { badRequest } from './errors.js';
import { commitInfo, regionUsages, reportInfo, type ReportRecord } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { SymbolStore, type ReportVersion } from './symbol-store.js';
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

/** One commit's memory report: regions, sections and (on request) every symbol. */
@Injectable()
export class ReportService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SymbolStore) private readonly store: SymbolStore,
  ) {}

  async find(ref: TargetRef, sha: string): Promise<ReportRecord> {
    return this.reports.report(await this.reports.target(ref), sha);
  }

  async report(req: ReportRequest): Promise<CommitReportData> {
    const record = await this.find(req, req.sha);
    const version = versionOf(record);
    if (!version) {
      // Not ingested yet: the layout as uploaded; symbols follow once the worker has them.
      return {
        commit: commitInfo(record.commit),
        report: reportInfo(record),
        ...uploadedLayout(record),
        symbols: null,
      };
    }
    const [regions, sections, symbols] = await Promise.all([
      this.store.regions(version),
      this.store.sections(version),
      req.includeSymbols ? this.store.symbols(version) : Promise.resolve(null),
    ]);
    return {
      commit: commitInfo(record.commit),
      report: reportInfo(record),
      regions,
      sections,
      symbols,
    };
  }

  /** The report grouped for treemaps and tables (see tree.ts). */
  async tree(req: TreeRequest): Promise<TreeData> {
    const record = await this.find(req, req.sha);
    const version = versionOf(record);
    if (!version) {
      throw badRequest(
        `Commit ${req.sha} of target ${req.target} is still being ingested; try again shortly`,
      );
    }
    const symbols = await this.store.symbols(version);
    return {
      commit_sha: req.sha,
      group_by: req.groupBy,
      tree: buildTree(symbols, req.groupBy, req.includeSymbols),
    };
  }
}

/** Regions and sections from the totals the upload stored, for reports not yet ingested. */
function uploadedLayout(record: ReportRecord): {
  regions: ReportRegionRow[];
  sections: ReportSectionRow[];
} {
  const stored = (record.regionTotals ?? {}) as Record<string, StoredRegion>;
  const regions = regionUsages(record.regionTotals).map((r) => ({
    ...r,
    address: stored[r.name]?.address ?? 0,
    type: stored[r.name]?.type ?? 'UNKNOWN',
  }));
  const sections = Array.isArray(record.sectionTotals)
    ? (record.sectionTotals as ReportSectionRow[]).map((s) => ({
        name: s.name,
        region: s.region,
        address: s.address,
        size: s.size,
        type: s.type,
      }))
    : [];
  return { regions, sections };
}
