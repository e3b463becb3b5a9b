/**
 * Reads of the gateway that the query service answers (product spec §7 and the dashboard's
 * reads beyond it). Every path is under `/api/{project}/{target}/` where `{project}` is the
 * project id and `{target}` the target name; every answer is the `{status, type, error, data}`
 * envelope. Errors: 400 `BadRequestError` for a malformed parameter (the message names it),
 * 404 `NotFoundError` for an unknown project (or one the caller is not a member of), target or
 * commit, 503/504 when the query service is unreachable or slow.
 *
 * | Method + path                                   | Query                                              | data                     |
 * | ----------------------------------------------- | -------------------------------------------------- | ------------------------ |
 * | GET heads                                       |                                                    | {@link HeadsData}        |
 * | GET commits/{sha}                               | count=50 (1-500), offset=0, only_changed=false     | {@link CommitPageData}   |
 * | GET commit/{sha}                                | include_symbols=false                              | {@link CommitReportData} |
 * | GET commit/{sha}/tree                           | group_by=source or object, include_symbols=true    | {@link TreeData}         |
 * | GET commit/{sha}/symbols                        | offset=0, limit=200 (1-1000), sort=size, order=desc, q=, file=, region=, section= | {@link SymbolPageData} |
 * | GET commit/{sha}/export                         | format=json or csv                                 | file (attachment)        |
 * | GET commit/{shaA}/{shaB}                        | all_symbols=false, zero_size=false                 | {@link CommitDiffData}   |
 * | GET commit/{shaA}/{shaB}/export                 | format=json or csv, all_symbols=false              | file (attachment)        |
 * | GET series/regions                              | branch= or sha=, from, to, limit=5000 (1-20000)    | {@link RegionSeriesData} |
 * | GET series/sections                             | as regions, plus names=a,b (optional filter)       | {@link SectionSeriesData}|
 * | GET symbols/history                             | name= (required), branch= or sha=, from, to, limit | {@link HistoryData}      |
 * | GET files/history                               | path= (required), branch= or sha=, from, to, limit | {@link HistoryData}      |
 * | GET growers                                     | base=&head= or branch=&from=&to=; by, limit=20     | {@link GrowersData}      |
 *
 * `branch` selects the reports uploaded on that branch in commit-time order; `sha` the chain of
 * parents from that commit (exactly one of the two). `from`/`to` are ISO 8601 times (inclusive).
 * Booleans accept `true`/`false`/`1`/`0`.
 *
 * Regions are shown as the target's region configuration says (region-config.ts, applied by
 * RegionPlan): merged regions under one name, limits overridden, rows in display order, each
 * with its {@link RegionPresentation} (display name, kind, hidden). Source paths are relative to
 * the repository: the configured `source_root`, else the build folder common to the report's
 * paths, is stripped.
 */
import type { RegionDelta, ReportDiff } from './diff.js';
import type { RegionPresentation } from './region-plan.js';

export type ReportKindName = 'full' | 'identical' | 'build_failed';
export type ReportStatusName = 'pending' | 'ingested' | 'failed';

/** Git metadata of a commit as uploaded (null where the upload did not say). */
export interface CommitInfo {
  sha: string;
  message: string | null;
  author_name: string | null;
  author_email: string | null;
  /** ISO 8601; null when the upload gave no commit time. */
  committed_at: string | null;
  tags: string[];
}

export interface RegionUsage {
  name: string;
  used_size: number;
  limit_size: number;
  free_size: number;
}

/** A region of one commit, with the change against the parent (0 when there is none). */
export interface RegionUsageWithDelta extends RegionUsage, RegionPresentation {
  used_change: number;
  free_change: number;
}

// ---------------------------------------------------------------------------------------------
// heads
// ---------------------------------------------------------------------------------------------

export interface Head {
  branch: string;
  commit_sha: string;
  /** When the head last moved. */
  updated_at: string;
  kind: ReportKindName;
  status: ReportStatusName;
  commit: CommitInfo;
}

export interface HeadsData {
  /** Most recently moved first. */
  heads: Head[];
}

// ---------------------------------------------------------------------------------------------
// commits/{sha}: the chain of parents
// ---------------------------------------------------------------------------------------------

export interface ChainCommit extends CommitInfo {
  parent_sha: string | null;
  branch: string | null;
  kind: ReportKindName;
  status: ReportStatusName;
  /** 0 for `sha` itself, 1 for its parent, … */
  depth: number;
  /**
   * The footprint differs from the parent's in the chain (region totals compared). True for the
   * oldest commit of the chain and for failed builds (no footprint); false for identical builds.
   */
  changed: boolean;
  /** Region totals with changes against the parent; empty for a failed build. */
  regions: RegionUsageWithDelta[];
}

export interface CommitPageData {
  /** Newest first: `sha`, its parent, … (only changed ones with `only_changed=true`). */
  commits: ChainCommit[];
  pagination: {
    /** Commits the listing holds (after `only_changed`), across all pages. */
    total_in_chain: number;
    has_more: boolean;
    count: number;
    offset: number;
  };
  chain_summary: {
    /** Every commit reached from `sha` by parent links, changed or not. */
    total_commits: number;
    changed_commits: number;
    /** Oldest commit of the chain (its parent is unknown or was never uploaded). */
    root_sha: string;
  };
}

// ---------------------------------------------------------------------------------------------
// commit/{sha}: one memory report
// ---------------------------------------------------------------------------------------------

export interface ReportSectionRow {
  name: string;
  region: string;
  address: number;
  size: number;
  type: string;
}

export interface ReportRegionRow extends RegionUsage {
  address: number;
  type: string;
}

export interface ReportSymbolRow {
  name: string;
  /** Demangled name; '' when it adds nothing to `name`. */
  full_name: string;
  address: number;
  size: number;
  type: string;
  binding: string;
  section: string;
  region: string;
  source_file: string;
  source_line: number;
  archive: string;
  object_file: string;
}

export interface ReportInfo {
  kind: ReportKindName;
  status: ReportStatusName;
  branch: string | null;
  parent_sha: string | null;
  /** Times this target × commit was uploaded again (the latest upload wins). */
  overwrite_count: number;
  /** Version whose rows are served; null while the first upload is still being ingested. */
  ingested_version: number | null;
  symbol_count: number;
  uploaded_at: string;
}

export interface CommitReportData {
  commit: CommitInfo;
  report: ReportInfo;
  regions: (ReportRegionRow & RegionPresentation)[];
  sections: ReportSectionRow[];
  /**
   * Every symbol, by address, with `include_symbols=true` once the report is ingested; null
   * when not requested or while the first upload is still being ingested (see report.status).
   */
  symbols: ReportSymbolRow[] | null;
}

// ---------------------------------------------------------------------------------------------
// commit/{sha}/symbols: one page of a report's symbols, sorted, filtered and searched
// ---------------------------------------------------------------------------------------------

export const SYMBOL_SORT_KEYS = [
  'name',
  'size',
  'address',
  'type',
  'section',
  'region',
  'source_file',
] as const;
export type SymbolSortKey = (typeof SYMBOL_SORT_KEYS)[number];

/** Rows of one page at most. */
export const SYMBOL_PAGE_MAX = 1000;

export interface SymbolPageData {
  commit_sha: string;
  /** Symbols in the report. */
  total: number;
  /** Symbols that pass the filters, and their bytes. */
  matched: number;
  matched_bytes: number;
  offset: number;
  /** The build folder stripped from every source path ('' when none). */
  source_root: string;
  /** Null while the report is still being ingested for the first time. */
  rows: ReportSymbolRow[] | null;
}

// ---------------------------------------------------------------------------------------------
// commit/{sha}/tree: grouping for treemaps and tables
// ---------------------------------------------------------------------------------------------

/**
 * region → section → directory… → file → symbol (`group_by=source`), or region → section →
 * archive → object file → symbol (`group_by=object`). Symbols without a source (or object) are
 * grouped under `(unknown)`. `size` of a node is the sum of its children.
 */
export type TreeNodeKind =
  'root' | 'region' | 'section' | 'directory' | 'file' | 'archive' | 'object' | 'symbol';

export interface TreeNode {
  name: string;
  /** A region's name as the region configuration shows it, when that differs. */
  display_name?: string;
  kind: TreeNodeKind;
  size: number;
  /** Number of symbols below (1 for a symbol). */
  symbols: number;
  children?: TreeNode[];
}

export interface TreeData {
  commit_sha: string;
  group_by: 'source' | 'object';
  tree: TreeNode;
}

// ---------------------------------------------------------------------------------------------
// commit/{shaA}/{shaB}: the diff (B against A)
// ---------------------------------------------------------------------------------------------

export interface CommitDiffData {
  base: { commit: CommitInfo; report: ReportInfo };
  head: { commit: CommitInfo; report: ReportInfo };
  /**
   * Regions, sections, symbols and totals as in diff.ts (`symbols` all with all_symbols, 0-byte
   * changes with zero_size).
   */
  diff: Omit<ReportDiff, 'regions'> & { regions: (RegionDelta & RegionPresentation)[] };
  all_symbols: boolean;
}

// ---------------------------------------------------------------------------------------------
// series
// ---------------------------------------------------------------------------------------------

/**
 * Series are columnar — one array per measure, index i belonging to `commits[i]` — so 5,000
 * commits stay a compact document for d3. Oldest first.
 */
export interface SeriesCommit {
  sha: string;
  /** First line of the commit message (the full commit is one `commit/{sha}` read away). */
  subject: string | null;
  committed_at: string | null;
  kind: ReportKindName;
}

/**
 * One region across the series; null where a commit has no footprint or not this region.
 * `placeholder` (of the presentation) holds when the region is a placeholder in every commit.
 */
export interface RegionSeries extends RegionPresentation {
  name: string;
  used_size: (number | null)[];
  limit_size: (number | null)[];
  free_size: (number | null)[];
}

export interface RegionSeriesData {
  commits: SeriesCommit[];
  regions: RegionSeries[];
  /** True when `limit` cut older commits off. */
  truncated: boolean;
}

/** One section instance (`region/section`; a load copy counts under its own region). */
export interface SectionSeries {
  key: string;
  region: string;
  name: string;
  size: (number | null)[];
}

export interface SectionSeriesData {
  commits: SeriesCommit[];
  sections: SectionSeries[];
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// symbols/history and files/history
// ---------------------------------------------------------------------------------------------

export interface HistoryEvent {
  sha: string;
  committed_at: string | null;
  size_before: number;
  size_after: number;
  delta: number;
}

/**
 * Commits whose rows are readable (ingested; failed builds have none), oldest first, with the
 * subject's bytes in each (0 when absent) — summed over same-named symbols, or over a file's
 * symbols — and how many symbols were counted.
 */
export interface HistoryData {
  /** The symbol name or source path asked for. */
  subject: string;
  commits: SeriesCommit[];
  size: number[];
  count: number[];
  present: boolean[];
  /**
   * Symbol history: the names counted in each commit. A symbol is followed as the diff matches it:
   * by its name, else (when the name is absent) by the names that are equal without compiler clone
   * suffixes (`.constprop.0`, `.isra.0`, `.lto_priv.0` …), so a function GCC cloned for a while
   * keeps one history.
   */
  names?: string[][];
  /** Latest commit where it appeared (present, and absent in the commit before or the first). */
  appeared: HistoryEvent | null;
  /** Latest commit where its size changed. */
  last_change: HistoryEvent | null;
  /** Commit with the largest absolute change. */
  largest_change: HistoryEvent | null;
  truncated: boolean;
}

// ---------------------------------------------------------------------------------------------
// growers
// ---------------------------------------------------------------------------------------------

export interface GrowerRow {
  /** Symbol name, or source path with `by=file`. */
  name: string;
  old_size: number;
  new_size: number;
  delta: number;
  status: string;
}

export interface GrowersData {
  base: CommitInfo;
  head: CommitInfo;
  by: 'symbol' | 'file';
  /** Largest growth first. */
  growers: GrowerRow[];
  /** Largest shrink first. */
  shrinkers: GrowerRow[];
  net_delta: number;
}
