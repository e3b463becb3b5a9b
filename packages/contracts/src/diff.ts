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

export type DiffStatus = 'added' | 'removed' | 'modified' | 'unchanged';

export interface RegionSide {
  address: number;
  limit_size: number;
  used_size: number;
  free_size: number;
}

export interface RegionDelta {
  name: string;
  /**
   * Old name of a region renamed between the reports: a region only the old report has and one
   * only the new report has, starting at the same address, are the same memory.
   */
  old_name?: string;
  status: DiffStatus;
  old: RegionSide | null;
  new: RegionSide | null;
  used_change: number;
  free_change: number;
  limit_change: number;
}

export interface SectionSide {
  address: number;
  size: number;
  /** Bytes not covered by symbols (size minus the sizes of symbols inside). */
  padding: number;
}

/** One section instance: a name in a region (a `.data` load copy is a separate instance). */
export interface SectionDelta {
  name: string;
  region: string;
  /** True for the load-address copy of a section that runs elsewhere (`.data` in flash). */
  load_copy: boolean;
  status: DiffStatus;
  old: SectionSide | null;
  new: SectionSide | null;
  delta: number;
  symbols_delta: number;
  padding_delta: number;
}

export interface SymbolSide {
  address: number;
  size: number;
  section: string;
  /** Region of the section instance holding the symbol; '' when outside every region. */
  region: string;
  source_file: string;
  type: string;
  archive: string;
  object_file: string;
}

/**
 * `moved`: the same symbol (matched) now lives in another section, region or source file with
 * the same size. A symbol that moved and changed size is `modified` (its sides show the move), so
 * a size change is never hidden behind a move. Address changes alone are not moves, nor is a
 * region renamed between the reports (see RegionDelta.old_name).
 */
export type SymbolStatus = DiffStatus | 'moved';

/**
 * Which cascade pass matched the two sides: 1 = name + source file + section, 2 = name,
 * 3 = name without compiler clone suffixes (`.constprop.0`, `[clone .isra.0]`, …).
 */
export type SymbolMatchLevel = 1 | 2 | 3;

export interface SymbolDelta {
  /** New name when present, else old name. */
  name: string;
  /** Old name when it differs (matched through clone-suffix stripping). */
  old_name?: string;
  status: SymbolStatus;
  match_level: SymbolMatchLevel | null;
  old: SymbolSide | null;
  new: SymbolSide | null;
  delta: number;
}

export interface ReportDiff {
  regions: RegionDelta[];
  sections: SectionDelta[];
  /** Changed symbols, largest absolute delta first (unchanged ones only on request). */
  symbols: SymbolDelta[];
  totals: {
    symbols_added: number;
    symbols_removed: number;
    symbols_modified: number;
    symbols_moved: number;
    /** Sum of size deltas of symbols outside every section of the layout. */
    unplaced_symbols_delta: number;
    /**
     * Changes of symbols with 0 bytes on both sides (LTO markers such as `chcond.c.1a2b3c`,
     * labels): left out of `symbols` and the counts above unless asked for, counted here.
     */
    zero_size_changes: number;
  };
}
