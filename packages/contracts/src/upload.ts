/**
 * The upload protocol's response shapes (`POST /upload`, `GET /summary`), as the MemBrowse CLI
 * and its PR-comment action read them (compat spec §3.2, §3.4). Our CLI reads the same.
 */

/** One region whose used size changed: `old` holds the parent's values. */
export interface RegionChange {
  name: string;
  used_size: number;
  limit_size: number;
  old: { used_size: number; limit_size?: number };
}

/** One section whose size changed, within its region. */
export interface SectionChange {
  name: string;
  region: string;
  size: number;
  old: { size: number };
}

export interface SymbolChangeRow {
  name: string;
  /** Source path, when known. */
  source_file?: string;
  section: string;
  size: number;
  /** Signed size delta against the parent (added: +size, removed: −size). */
  delta: number;
  old?: { size: number; section?: string; address?: number };
  address?: number;
}

export interface UploadChanges {
  regions: { added?: RegionChange[]; removed?: RegionChange[]; modified: RegionChange[] };
  sections: { added?: SectionChange[]; removed?: SectionChange[]; modified: SectionChange[] };
  symbols: {
    added: SymbolChangeRow[];
    removed: SymbolChangeRow[];
    modified: SymbolChangeRow[];
    moved: SymbolChangeRow[];
  };
}

/** Per region: how used and free bytes moved against the parent. */
export type ChangesSummary = Record<string, { used_change: number; free_change: number }>;

export interface BudgetAlert {
  budget_name: string;
  exceeded_regions: string[];
  current_usage: Record<string, number>;
  limits: Record<string, number>;
  exceeded_by: Record<string, number>;
}

export interface UploadResponseData {
  project_id: string;
  target_name: string;
  commit_sha: string;
  report_id: string;
  /** The parent commit the changes are measured against; null when there is none. */
  parent_sha: string | null;
  comparison_url: string;
  is_overwritten: boolean;
  changes_summary: ChangesSummary;
  changes: UploadChanges;
  alerts: { budgets: BudgetAlert[] };
}

export interface UploadSuccessResponse {
  success: true;
  message: string;
  data: UploadResponseData;
}

/** Every upload error: HTTP 4xx/5xx with this body (the MemBrowse CLI prints `error`). */
export interface UploadErrorResponse {
  success: false;
  type: string;
  error: string;
}

/** One region of a summarised commit, changed or not: what a PR comment or status shows. */
export interface SummaryRegion {
  name: string;
  used_size: number;
  limit_size: number;
  /** Used bytes against the parent; null when the parent has no report to compare with. */
  change: number | null;
}

export interface SummaryTarget {
  target_name: string;
  dashboard_url: string;
  comparison_url: string;
  changes_summary: {
    changes: Pick<UploadChanges, 'regions' | 'sections'> & Partial<UploadChanges>;
  };
  alerts: { budgets: BudgetAlert[] };
  // Beyond the MemBrowse shape (absent from other servers' answers, so optional for readers).
  /** What the report records: a build, a commit with its parent's footprint, or a failed build. */
  kind?: 'full' | 'identical' | 'build_failed';
  /** The commit the changes are measured against; null when there is none. */
  parent_sha?: string | null;
  /** Every region of the commit in the report's order. */
  regions?: SummaryRegion[];
}

/** `GET /summary?commit=<sha>`: every target of the key's project that has this commit. */
export interface SummaryResponse {
  success: true;
  data: {
    commit_sha: string;
    pr_number: number | null;
    dashboard_url: string;
    targets: SummaryTarget[];
  };
}
