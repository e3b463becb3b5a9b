import type { SymbolSortKey } from './schemas/query.js';

/**
 * Messages the gateway sends to the query service (patterns in query-messages.ts). The gateway
 * has checked membership and parsed every parameter; the query service resolves the target and
 * commits and answers `NotFoundError` for unknown ones.
 *
 * Errors travel as an `RpcException` whose error object is a {@link QueryErrorReply}; the
 * gateway turns it into the HTTP status and envelope.
 */
export interface QueryErrorReply {
  status: 400 | 404;
  type: 'BadRequestError' | 'NotFoundError';
  message: string;
}

export function isQueryErrorReply(value: unknown): value is QueryErrorReply {
  const v = value as Partial<QueryErrorReply> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    (v.status === 400 || v.status === 404) &&
    typeof v.message === 'string'
  );
}

export interface TargetRef {
  projectId: string;
  /** Target name, as in the URL. */
  target: string;
}

export interface CommitsRequest extends TargetRef {
  sha: string;
  count: number;
  offset: number;
  onlyChanged: boolean;
}

export interface ReportRequest extends TargetRef {
  sha: string;
  includeSymbols: boolean;
}

export interface TreeRequest extends TargetRef {
  sha: string;
  groupBy: 'source' | 'object';
  includeSymbols: boolean;
}

export interface SymbolPageRequest extends TargetRef {
  sha: string;
  offset: number;
  limit: number;
  sort: SymbolSortKey;
  descending: boolean;
  /** Case-insensitive text in the name, demangled name or source path. */
  query?: string;
  /** Exact (repository-relative) source path, region or section. */
  sourceFile?: string;
  region?: string;
  section?: string;
}

export type ExportFormat = 'json' | 'csv';

export interface ReportExportRequest extends TargetRef {
  sha: string;
  format: ExportFormat;
}

export interface DiffRequest extends TargetRef {
  baseSha: string;
  headSha: string;
  allSymbols: boolean;
  /** Also list changes whose sizes are 0 on both sides (LTO markers, labels). */
  zeroSize?: boolean;
}

export interface DiffExportRequest extends DiffRequest {
  format: ExportFormat;
}

/** Exactly one of `branch` and `sha`. Times are ISO 8601. */
export interface SeriesSelection {
  branch?: string;
  sha?: string;
  from?: string;
  to?: string;
  limit: number;
}

export interface SeriesRequest extends TargetRef {
  selection: SeriesSelection;
  /** Sections series only: `region/section` keys or bare section names to keep. */
  names?: string[];
}

export interface HistoryRequest extends TargetRef {
  /** Symbol name or source path. */
  subject: string;
  selection: SeriesSelection;
}

export interface GrowersRequest extends TargetRef {
  /** Either two commits… */
  baseSha?: string;
  headSha?: string;
  /** …or the first and last report of a branch within a time window. */
  branch?: string;
  from?: string;
  to?: string;
  by: 'symbol' | 'file';
  limit: number;
}

/** Export replies: a file the gateway sends as an attachment. */
export interface ExportReply {
  filename: string;
  contentType: string;
  body: string;
}
