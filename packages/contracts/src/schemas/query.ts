import { z } from 'zod';
import { SYMBOL_SORT_KEYS } from '../query.js';
import { isoTime } from './common.js';
import { RegionDelta, ReportDiff } from './diff.js';
import { RegionPresentation } from './regions.js';

/**
 * Answers of the reads under `/api/{project}/{target}/` that the query service computes (the
 * operations of operations.ts say which read answers which). Regions are shown as the target's
 * region configuration says (RegionPlan); source paths are relative to the repository.
 */

export const ReportKindName = z.enum(['full', 'identical', 'build_failed']);
export type ReportKindName = z.infer<typeof ReportKindName>;
export const ReportStatusName = z.enum(['pending', 'ingested', 'failed']);
export type ReportStatusName = z.infer<typeof ReportStatusName>;

/** Git metadata of a commit as uploaded (null where the upload did not say). */
export const CommitInfo = z
  .object({
    sha: z.string(),
    message: z.string().nullable(),
    author_name: z.string().nullable(),
    author_email: z.string().nullable(),
    committed_at: isoTime.nullable().describe('Null when the upload gave no commit time'),
    tags: z.array(z.string()),
  })
  .meta({ id: 'CommitInfo' });
export type CommitInfo = z.infer<typeof CommitInfo>;

export const RegionUsage = z.object({
  name: z.string(),
  used_size: z.int(),
  limit_size: z.int(),
  free_size: z.int(),
});
export type RegionUsage = z.infer<typeof RegionUsage>;

/** A region of one commit, with the change against the parent (0 when there is none). */
export const RegionUsageWithDelta = RegionUsage.extend({
  ...RegionPresentation.shape,
  used_change: z.int(),
  free_change: z.int(),
}).meta({ id: 'RegionUsageWithDelta' });
export type RegionUsageWithDelta = z.infer<typeof RegionUsageWithDelta>;

export const Head = z
  .object({
    branch: z.string(),
    commit_sha: z.string(),
    updated_at: isoTime.describe('When the head last moved'),
    kind: ReportKindName,
    status: ReportStatusName,
    commit: CommitInfo,
  })
  .meta({ id: 'Head' });
export type Head = z.infer<typeof Head>;

export const HeadsData = z
  .object({ heads: z.array(Head).describe('Most recently moved first') })
  .meta({ id: 'HeadsData' });
export type HeadsData = z.infer<typeof HeadsData>;

export const ChainCommit = CommitInfo.extend({
  parent_sha: z.string().nullable(),
  branch: z.string().nullable(),
  kind: ReportKindName,
  status: ReportStatusName,
  depth: z.int().describe('0 for `sha` itself, 1 for its parent, …'),
  changed: z
    .boolean()
    .describe(
      "The footprint differs from the parent's in the chain (region totals compared); true for the oldest commit and for failed builds, false for identical builds",
    ),
  regions: z
    .array(RegionUsageWithDelta)
    .describe('Region totals with changes against the parent; empty for a failed build'),
}).meta({ id: 'ChainCommit' });
export type ChainCommit = z.infer<typeof ChainCommit>;

export const CommitPageData = z
  .object({
    commits: z
      .array(ChainCommit)
      .describe('Newest first: `sha`, its parent, … (only changed ones with only_changed=true)'),
    pagination: z.object({
      total_in_chain: z
        .int()
        .describe('Commits the listing holds (after only_changed), across all pages'),
      has_more: z.boolean(),
      count: z.int(),
      offset: z.int(),
    }),
    chain_summary: z.object({
      total_commits: z
        .int()
        .describe('Every commit reached from `sha` by parent links, changed or not'),
      changed_commits: z.int(),
      root_sha: z
        .string()
        .describe('Oldest commit of the chain (its parent is unknown or was never uploaded)'),
    }),
  })
  .meta({ id: 'CommitPageData' });
export type CommitPageData = z.infer<typeof CommitPageData>;

export const ReportSectionRow = z.object({
  name: z.string(),
  region: z.string(),
  address: z.int(),
  size: z.int(),
  type: z.string(),
});
export type ReportSectionRow = z.infer<typeof ReportSectionRow>;

export const ReportRegionRow = RegionUsage.extend({ address: z.int(), type: z.string() });
export type ReportRegionRow = z.infer<typeof ReportRegionRow>;

export const ReportSymbolRow = z
  .object({
    name: z.string(),
    full_name: z.string().describe("Demangled name; '' when it adds nothing to `name`"),
    address: z.int(),
    size: z.int(),
    type: z.string(),
    binding: z.string(),
    section: z.string(),
    region: z.string(),
    source_file: z.string(),
    source_line: z.int(),
    archive: z.string(),
    object_file: z.string(),
  })
  .meta({ id: 'ReportSymbolRow' });
export type ReportSymbolRow = z.infer<typeof ReportSymbolRow>;

export const ReportInfo = z
  .object({
    kind: ReportKindName,
    status: ReportStatusName,
    branch: z.string().nullable(),
    parent_sha: z.string().nullable(),
    overwrite_count: z
      .int()
      .describe('Times this target × commit was uploaded again (the latest upload wins)'),
    ingested_version: z
      .int()
      .nullable()
      .describe(
        'Version whose rows are served; null while the first upload is still being ingested',
      ),
    symbol_count: z.int(),
    uploaded_at: isoTime,
  })
  .meta({ id: 'ReportInfo' });
export type ReportInfo = z.infer<typeof ReportInfo>;

export const CommitReportData = z
  .object({
    commit: CommitInfo,
    report: ReportInfo,
    regions: z.array(ReportRegionRow.extend(RegionPresentation.shape)),
    sections: z.array(ReportSectionRow),
    symbols: z
      .array(ReportSymbolRow)
      .nullable()
      .describe(
        'Every symbol, by address, with include_symbols=true once the report is ingested; null when not requested or while the first upload is still being ingested',
      ),
  })
  .meta({ id: 'CommitReportData' });
export type CommitReportData = z.infer<typeof CommitReportData>;

export const SymbolSortKey = z.enum(SYMBOL_SORT_KEYS);
export type SymbolSortKey = z.infer<typeof SymbolSortKey>;

export const SymbolPageData = z
  .object({
    commit_sha: z.string(),
    total: z.int().describe('Symbols in the report'),
    matched: z.int().describe('Symbols that pass the filters'),
    matched_bytes: z.int().describe('Bytes of the symbols that pass the filters'),
    offset: z.int(),
    source_root: z
      .string()
      .describe("The build folder stripped from every source path ('' when none)"),
    rows: z
      .array(ReportSymbolRow)
      .nullable()
      .describe('Null while the report is still being ingested for the first time'),
  })
  .meta({ id: 'SymbolPageData' });
export type SymbolPageData = z.infer<typeof SymbolPageData>;

export const TreeNodeKind = z.enum([
  'root',
  'region',
  'section',
  'directory',
  'file',
  'archive',
  'object',
  'symbol',
]);
export type TreeNodeKind = z.infer<typeof TreeNodeKind>;

export interface TreeNode {
  name: string;
  /** A region's name as the region configuration shows it, when that differs. */
  display_name?: string | undefined;
  kind: TreeNodeKind;
  size: number;
  /** Number of symbols below (1 for a symbol). */
  symbols: number;
  children?: TreeNode[] | undefined;
}

/**
 * region → section → directory… → file → symbol (`group_by=source`), or region → section →
 * archive → object file → symbol (`group_by=object`). Symbols without a source (or object) are
 * grouped under `(unknown)`. `size` of a node is the sum of its children.
 */
// Recursive: the interface above gives the getter its type, which zod cannot infer on its own.
export const TreeNode: z.ZodType<TreeNode> = z
  .object({
    name: z.string(),
    display_name: z.string().optional(),
    kind: TreeNodeKind,
    size: z.int(),
    symbols: z.int(),
    get children() {
      return z.array(TreeNode).optional();
    },
  })
  .meta({ id: 'TreeNode' });

export const TreeData = z
  .object({ commit_sha: z.string(), group_by: z.enum(['source', 'object']), tree: TreeNode })
  .meta({ id: 'TreeData' });
export type TreeData = z.infer<typeof TreeData>;

const Side = z.object({ commit: CommitInfo, report: ReportInfo });

export const CommitDiffData = z
  .object({
    base: Side,
    head: Side,
    diff: ReportDiff.extend({
      regions: z.array(RegionDelta.extend(RegionPresentation.shape)),
    }).describe(
      'Regions, sections, symbols and totals (`symbols` all with all_symbols, 0-byte changes with zero_size)',
    ),
    all_symbols: z.boolean(),
  })
  .meta({ id: 'CommitDiffData' });
export type CommitDiffData = z.infer<typeof CommitDiffData>;

/**
 * Series are columnar — one array per measure, index i belonging to `commits[i]` — so 5,000
 * commits stay a compact document for d3. Oldest first.
 */
export const SeriesCommit = z
  .object({
    sha: z.string(),
    subject: z
      .string()
      .nullable()
      .describe('First line of the commit message (the full commit is one commit/{sha} read away)'),
    committed_at: isoTime.nullable(),
    kind: ReportKindName,
  })
  .meta({ id: 'SeriesCommit' });
export type SeriesCommit = z.infer<typeof SeriesCommit>;

const column = z.array(z.int().nullable());

/** One region across the series; null where a commit has no footprint or not this region. */
export const RegionSeries = z
  .object({
    ...RegionPresentation.shape,
    name: z.string(),
    used_size: column,
    limit_size: column,
    free_size: column,
  })
  .meta({ id: 'RegionSeries' });
export type RegionSeries = z.infer<typeof RegionSeries>;

export const RegionSeriesData = z
  .object({
    commits: z.array(SeriesCommit),
    regions: z.array(RegionSeries),
    truncated: z.boolean().describe('True when `limit` cut older commits off'),
  })
  .meta({ id: 'RegionSeriesData' });
export type RegionSeriesData = z.infer<typeof RegionSeriesData>;

/** One section instance (`region/section`; a load copy counts under its own region). */
export const SectionSeries = z
  .object({ key: z.string(), region: z.string(), name: z.string(), size: column })
  .meta({ id: 'SectionSeries' });
export type SectionSeries = z.infer<typeof SectionSeries>;

export const SectionSeriesData = z
  .object({
    commits: z.array(SeriesCommit),
    sections: z.array(SectionSeries),
    truncated: z.boolean(),
  })
  .meta({ id: 'SectionSeriesData' });
export type SectionSeriesData = z.infer<typeof SectionSeriesData>;

export const HistoryEvent = z
  .object({
    sha: z.string(),
    committed_at: isoTime.nullable(),
    size_before: z.int(),
    size_after: z.int(),
    delta: z.int(),
  })
  .meta({ id: 'HistoryEvent' });
export type HistoryEvent = z.infer<typeof HistoryEvent>;

/**
 * Commits whose rows are readable (ingested; failed builds have none), oldest first, with the
 * subject's bytes in each (0 when absent) — summed over same-named symbols, or over a file's
 * symbols — and how many symbols were counted. Commits are named by SHA only: their subjects and
 * times are those of the branch's or chain's series (`series/regions`), which a client showing
 * histories has already, so 5,000 commits stay a small answer.
 */
export const HistoryData = z
  .object({
    subject: z.string().describe('The symbol name or source path asked for'),
    shas: z.array(z.string()).describe('The commits, oldest first; index i of every column'),
    size: z.array(z.int()),
    count: z.array(z.int()),
    present: z.array(z.boolean()),
    names: z
      .array(z.array(z.string()))
      .optional()
      .describe(
        'Symbol history, when some commit held the symbol only under other names: the names counted in each commit (a symbol is followed by its name, else by the names equal to it without compiler clone suffixes). Absent: each commit where it is present counted the name asked for',
      ),
    appeared: HistoryEvent.nullable().describe(
      'Latest commit where it appeared (present, and absent in the commit before or the first)',
    ),
    last_change: HistoryEvent.nullable().describe('Latest commit where its size changed'),
    largest_change: HistoryEvent.nullable().describe('Commit with the largest absolute change'),
    truncated: z.boolean(),
  })
  .meta({ id: 'HistoryData' });
export type HistoryData = z.infer<typeof HistoryData>;

export const GrowerRow = z
  .object({
    name: z.string().describe('Symbol name, or source path with by=file'),
    old_size: z.int(),
    new_size: z.int(),
    delta: z.int(),
    status: z.string(),
  })
  .meta({ id: 'GrowerRow' });
export type GrowerRow = z.infer<typeof GrowerRow>;

export const GrowersData = z
  .object({
    base: CommitInfo,
    head: CommitInfo,
    by: z.enum(['symbol', 'file']),
    growers: z.array(GrowerRow).describe('Largest growth first'),
    shrinkers: z.array(GrowerRow).describe('Largest shrink first'),
    net_delta: z.int(),
  })
  .meta({ id: 'GrowersData' });
export type GrowersData = z.infer<typeof GrowersData>;
