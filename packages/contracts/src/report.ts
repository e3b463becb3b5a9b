/**
 * The memory report format (`memory_analysis`) and upload envelope, compatible with the MemBrowse
 * CLI 1.2.9 (see the compat spec §2). All addresses and sizes are decimal integers. Our CLI
 * writes a superset; the server accepts older shapes, so readers must tolerate missing fields.
 */

export interface ReportSymbol {
  name: string;
  address: number;
  size: number;
  /** FUNC, OBJECT, NOTYPE, SECTION, FILE, COMMON, TLS, or a raw name for others. */
  type: string;
  /** LOCAL, GLOBAL, WEAK, or a raw name for others. */
  binding: string;
  /** Section name; '' for absolute, undefined and common symbols. */
  section: string;
  /** Source path ('' when unknown); older CLIs send a basename only. */
  source_file: string;
  source_line?: number;
  /**
   * Set when `source_file` does not come from DWARF (Memtrail reports): `symbol_table` — the
   * symbol table's `STT_FILE` symbols, as addr2line reads them; `map_file` — the `STT_FILE` of the
   * object the map file attributes the symbol to. Either way a basename only (for an assembly
   * file, often its object's name) and no line.
   */
  source_file_from?: SourceFileOrigin;
  visibility?: string;
  archive?: string;
  object_file?: string;
}

export type SourceFileOrigin = 'symbol_table' | 'map_file';

export type SectionKind = 'code' | 'data' | 'rodata';

export interface ReportSection {
  name: string;
  /** Run address, or the load address for the load-image copy of the same section. */
  address: number;
  size: number;
  type: SectionKind | string;
  end_address: number;
}

/**
 * How a region's `used_size` was measured (Memtrail reports; MemBrowse sends none):
 * - `linker`: what GNU ld's `--print-memory-usage` says for the link: from the region's origin to
 *   the end of the last section the linker placed in it (padding between sections included);
 * - `linker_extended`: the linker's figure extended over what it does not charge to the region
 *   but lies in it: load images placed with `AT(expr)`, sections given an address but no region;
 * - `occupied`: the bytes the region's sections cover (no gaps), used where the linker's figure
 *   would count free space (a stack pinned at the region's end makes ld say 100 %), where
 *   `--skip-section` removed a section the linker placed there, and for IAR and Arm layouts;
 * - `address`: the sum of the sections whose address lies in the region (no placement known);
 * - `container`: the sum of its `children` (nothing is placed in the region itself, except in an
 *   Arm load region, which also stores the load images of execution regions running elsewhere).
 */
export type UsedSizeBasis = 'linker' | 'linker_extended' | 'occupied' | 'address' | 'container';

export interface ReportRegion {
  address: number;
  limit_size: number;
  /** UNKNOWN for linker-script regions; FLASH/RAM for inferred ones; rx/rw for defaults. */
  type: string;
  used_size: number;
  /** May be negative (overflow, or default regions without a limit). */
  free_size: number;
  utilization_percent: number;
  sections: ReportSection[];
  used_size_basis?: UsedSizeBasis;
  /** The linker's own figure, when `used_size` is measured otherwise (`linker_extended`, `occupied`). */
  linker_used_size?: number;
  /**
   * A region around others: `used_size` sums its `children` (and, for an Arm load region, the load
   * images placed in it directly; other containers hold nothing themselves).
   */
  container?: boolean;
  /** Regions directly inside a container, in declaration order. */
  children?: string[];
  /** The container this region lies in. */
  parent?: string;
  /** LENGTH = 0: a name reserved by the script, holding nothing; displays may hide it. */
  placeholder?: boolean;
}

export interface ProgramHeader {
  type: string;
  offset: number;
  virt_addr: number;
  phys_addr: number;
  file_size: number;
  mem_size: number;
  flags: string;
  align: number;
}

export interface MemoryReport {
  file_path: string | null;
  architecture: string | null;
  toolchain?: string | null;
  entry_point: number | null;
  file_type: string | null;
  machine: string | null;
  symbols: ReportSymbol[];
  program_headers: ProgramHeader[];
  /** Region name → region, in linker-script order. */
  memory_layout: Record<string, ReportRegion>;
}

export interface GitMetadata {
  commit_hash?: string | null;
  base_commit_hash?: string | null;
  /** Present (and null) only when the upload explicitly has no parent. */
  parent_commit_hash?: null;
  branch_name?: string | null;
  repository?: string | null;
  commit_message?: string | null;
  commit_timestamp?: string | null;
  author_name?: string | null;
  author_email?: string | null;
  tags?: string[];
  pr_number?: string | null;
  pr_name?: string | null;
  pr_author_name?: string | null;
  pr_author_email?: string | null;
}

export interface UploadMetadata {
  git: GitMetadata;
  repository?: string | null;
  target_name: string;
  analysis_version?: string;
  architecture?: string | null;
  toolchain?: string | null;
  build_failed?: boolean;
  identical?: boolean;
}

/** Body of `POST /upload`. */
export interface UploadEnvelope {
  metadata: UploadMetadata;
  memory_analysis: MemoryReport;
}
