import { z } from 'zod';

/**
 * The upload protocol's response shapes (`POST /upload`, `GET /summary`), as the MemBrowse CLI
 * and its PR-comment action read them (compat spec §3.2, §3.4). Our CLI reads the same.
 */

/** One region whose used size changed: `old` holds the parent's values. */
export const RegionChange = z
  .object({
    name: z.string(),
    used_size: z.int(),
    limit_size: z.int(),
    old: z.object({ used_size: z.int(), limit_size: z.int().optional() }),
  })
  .meta({ id: 'RegionChange' });
export type RegionChange = z.infer<typeof RegionChange>;

/** One section whose size changed, within its region. */
export const SectionChange = z
  .object({
    name: z.string(),
    region: z.string(),
    size: z.int(),
    old: z.object({ size: z.int() }),
  })
  .meta({ id: 'SectionChange' });
export type SectionChange = z.infer<typeof SectionChange>;

export const SymbolChangeRow = z
  .object({
    name: z.string(),
    source_file: z.string().optional().describe('Source path, when known'),
    section: z.string(),
    size: z.int(),
    delta: z.int().describe('Signed size delta against the parent (added: +size, removed: −size)'),
    old: z
      .object({ size: z.int(), section: z.string().optional(), address: z.int().optional() })
      .optional(),
    address: z.int().optional(),
  })
  .meta({ id: 'SymbolChangeRow' });
export type SymbolChangeRow = z.infer<typeof SymbolChangeRow>;

const changeLists = <T extends z.ZodType>(row: T) =>
  z.object({
    added: z.array(row).optional(),
    removed: z.array(row).optional(),
    modified: z.array(row),
  });

const RegionChanges = changeLists(RegionChange);
const SectionChanges = changeLists(SectionChange);
const SymbolChanges = z.object({
  added: z.array(SymbolChangeRow),
  removed: z.array(SymbolChangeRow),
  modified: z.array(SymbolChangeRow),
  moved: z.array(SymbolChangeRow),
});

export const UploadChanges = z
  .object({ regions: RegionChanges, sections: SectionChanges, symbols: SymbolChanges })
  .meta({ id: 'UploadChanges' });
export type UploadChanges = z.infer<typeof UploadChanges>;

/** Per region: how used and free bytes moved against the parent. */
export const ChangesSummary = z
  .record(z.string(), z.object({ used_change: z.int(), free_change: z.int() }))
  .meta({ id: 'ChangesSummary' });
export type ChangesSummary = z.infer<typeof ChangesSummary>;

const regionBytes = z.record(z.string(), z.int());

export const BudgetAlert = z
  .object({
    budget_name: z.string(),
    exceeded_regions: z.array(z.string()),
    current_usage: regionBytes,
    limits: regionBytes,
    exceeded_by: regionBytes,
  })
  .meta({ id: 'BudgetAlert' });
export type BudgetAlert = z.infer<typeof BudgetAlert>;

const Alerts = z.object({ budgets: z.array(BudgetAlert) });

export const UploadResponseData = z
  .object({
    project_id: z.string(),
    target_name: z.string(),
    commit_sha: z.string(),
    report_id: z.string(),
    parent_sha: z
      .string()
      .nullable()
      .describe('The parent commit the changes are measured against; null when there is none'),
    comparison_url: z.string(),
    is_overwritten: z.boolean(),
    changes_summary: ChangesSummary,
    changes: UploadChanges,
    alerts: Alerts,
  })
  .meta({ id: 'UploadResponseData' });
export type UploadResponseData = z.infer<typeof UploadResponseData>;

export const UploadSuccessResponse = z
  .object({ success: z.literal(true), message: z.string(), data: UploadResponseData })
  .meta({ id: 'UploadSuccessResponse' });
export type UploadSuccessResponse = z.infer<typeof UploadSuccessResponse>;

/**
 * Every upload error: HTTP 4xx/5xx with this body (the MemBrowse CLI prints `error`), plus the
 * product envelope's `status` and `data` so clients of either shape read it.
 */
export const UploadErrorResponse = z
  .object({
    success: z.literal(false),
    type: z.string(),
    error: z.string(),
    status: z.literal('error'),
    data: z.null(),
  })
  .meta({ id: 'UploadErrorResponse' });
export type UploadErrorResponse = z.infer<typeof UploadErrorResponse>;

/** One region of a summarised commit, changed or not: what a PR comment or status shows. */
export const SummaryRegion = z
  .object({
    name: z.string(),
    used_size: z.int(),
    limit_size: z.int(),
    change: z
      .int()
      .nullable()
      .describe(
        'Used bytes against the parent; null when the parent has no report to compare with',
      ),
  })
  .meta({ id: 'SummaryRegion' });
export type SummaryRegion = z.infer<typeof SummaryRegion>;

export const SummaryTarget = z
  .object({
    target_name: z.string(),
    dashboard_url: z.string(),
    comparison_url: z.string(),
    changes_summary: z.object({
      changes: z.object({
        regions: RegionChanges,
        sections: SectionChanges,
        symbols: SymbolChanges.optional(),
      }),
    }),
    alerts: Alerts,
    // Beyond the MemBrowse shape (absent from other servers' answers, so optional for readers).
    kind: z
      .enum(['full', 'identical', 'build_failed'])
      .optional()
      .describe(
        "What the report records: a build, a commit with its parent's footprint, or a failed build",
      ),
    parent_sha: z
      .string()
      .nullable()
      .optional()
      .describe('The commit the changes are measured against; null when there is none'),
    regions: z
      .array(SummaryRegion)
      .optional()
      .describe("Every region of the commit in the report's order"),
  })
  .meta({ id: 'SummaryTarget' });
export type SummaryTarget = z.infer<typeof SummaryTarget>;

/** `GET /summary?commit=<sha>`: every target of the key's project that has this commit. */
export const SummaryResponse = z
  .object({
    success: z.literal(true),
    data: z.object({
      commit_sha: z.string(),
      pr_number: z.int().nullable(),
      dashboard_url: z.string(),
      targets: z.array(SummaryTarget),
    }),
  })
  .meta({ id: 'SummaryResponse' });
export type SummaryResponse = z.infer<typeof SummaryResponse>;
