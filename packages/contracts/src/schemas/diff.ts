import { z } from 'zod';

/**
 * Difference between two memory reports, as computed by `diffReports` in @memtrail/report and
 * returned by the query service. All sizes are bytes; deltas are new − old. The upload
 * response's `changes` and `changes_summary` (upload.ts) are derived from it.
 *
 * Reconciliation (exact, for every section instance):
 *   section.delta = section.symbols_delta + section.padding_delta
 * where symbols_delta sums, over symbol rows, the new size if the new side lies in the section
 * minus the old size if the old side does. Padding is everything the section holds that no
 * symbol accounts for (alignment, fill, anonymous data, load-image copies); it is negative when
 * symbols overlap (aliases). Region used_change equals the sum of its sections' deltas whenever
 * each report's region used_size is the sum of its sections: true of MemBrowse reports and of
 * ours measured by `address` or `occupied` without overlaps; GNU ld's figure (`linker`) also
 * counts the padding between sections, and a container's is the sum of its children's.
 */

export const DiffStatus = z.enum(['added', 'removed', 'modified', 'unchanged']);
export type DiffStatus = z.infer<typeof DiffStatus>;

export const RegionSide = z
  .object({ address: z.int(), limit_size: z.int(), used_size: z.int(), free_size: z.int() })
  .meta({ id: 'RegionSide' });
export type RegionSide = z.infer<typeof RegionSide>;

export const RegionDelta = z.object({
  name: z.string(),
  old_name: z
    .string()
    .optional()
    .describe(
      'Old name of a region renamed between the reports: a region only the old report has and one only the new report has, starting at the same address, are the same memory',
    ),
  status: DiffStatus,
  old: RegionSide.nullable(),
  new: RegionSide.nullable(),
  used_change: z.int(),
  free_change: z.int(),
  limit_change: z.int(),
});
export type RegionDelta = z.infer<typeof RegionDelta>;

export const SectionSide = z
  .object({
    address: z.int(),
    size: z.int(),
    padding: z
      .int()
      .describe('Bytes not covered by symbols (size minus the sizes of symbols inside)'),
  })
  .meta({ id: 'SectionSide' });
export type SectionSide = z.infer<typeof SectionSide>;

/** One section instance: a name in a region (a `.data` load copy is a separate instance). */
export const SectionDelta = z
  .object({
    name: z.string(),
    region: z.string(),
    load_copy: z
      .boolean()
      .describe('True for the load-address copy of a section that runs elsewhere (.data in flash)'),
    status: DiffStatus,
    old: SectionSide.nullable(),
    new: SectionSide.nullable(),
    delta: z.int(),
    symbols_delta: z.int(),
    padding_delta: z.int(),
  })
  .meta({ id: 'SectionDelta' });
export type SectionDelta = z.infer<typeof SectionDelta>;

export const SymbolSide = z
  .object({
    address: z.int(),
    size: z.int(),
    section: z.string(),
    region: z
      .string()
      .describe("Region of the section instance holding the symbol; '' when outside every region"),
    source_file: z.string(),
    type: z.string(),
    archive: z.string(),
    object_file: z.string(),
  })
  .meta({ id: 'SymbolSide' });
export type SymbolSide = z.infer<typeof SymbolSide>;

/**
 * `moved`: the same symbol (matched) now lives in another section, region or source file with
 * the same size. A symbol that moved and changed size is `modified` (its sides show the move), so
 * a size change is never hidden behind a move. Address changes alone are not moves, nor is a
 * region renamed between the reports (see RegionDelta.old_name).
 */
export const SymbolStatus = z.enum(['added', 'removed', 'modified', 'unchanged', 'moved']);
export type SymbolStatus = z.infer<typeof SymbolStatus>;

/**
 * Which cascade pass matched the two sides: 1 = name + source file + section, 2 = name,
 * 3 = name without compiler clone suffixes (`.constprop.0`, `[clone .isra.0]`, …).
 */
export const SymbolMatchLevel = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type SymbolMatchLevel = z.infer<typeof SymbolMatchLevel>;

export const SymbolDelta = z
  .object({
    name: z.string().describe('New name when present, else old name'),
    old_name: z
      .string()
      .optional()
      .describe('Old name when it differs (matched through clone-suffix stripping)'),
    status: SymbolStatus,
    match_level: SymbolMatchLevel.nullable(),
    old: SymbolSide.nullable(),
    new: SymbolSide.nullable(),
    delta: z.int(),
  })
  .meta({ id: 'SymbolDelta' });
export type SymbolDelta = z.infer<typeof SymbolDelta>;

export const DiffTotals = z.object({
  symbols_added: z.int(),
  symbols_removed: z.int(),
  symbols_modified: z.int(),
  symbols_moved: z.int(),
  unplaced_symbols_delta: z
    .int()
    .describe('Sum of size deltas of symbols outside every section of the layout'),
  zero_size_changes: z
    .int()
    .describe(
      'Changes of symbols with 0 bytes on both sides (LTO markers, labels): left out of `symbols` and the counts above unless asked for, counted here',
    ),
});

export const ReportDiff = z.object({
  regions: z.array(RegionDelta),
  sections: z.array(SectionDelta),
  symbols: z
    .array(SymbolDelta)
    .describe('Changed symbols, largest absolute delta first (unchanged ones only on request)'),
  totals: DiffTotals,
});
export type ReportDiff = z.infer<typeof ReportDiff>;
