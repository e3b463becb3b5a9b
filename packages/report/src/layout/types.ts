import type { ReportRegion, UsedSizeBasis } from '@memtrail/contracts';

/** An allocated section as the layout needs it (maps 1:1 from an ELF section header). */
export interface LayoutSection {
  name: string;
  /** NOBITS sections (.bss) occupy memory but have no load image; NOTE, INIT_ARRAY … as in the ELF. */
  type: 'PROGBITS' | 'NOBITS' | string;
  flags: { alloc: boolean; write: boolean; exec: boolean; tls?: boolean };
  address: number;
  size: number;
  /** sh_addralign (1 when absent): tells alignment padding from a deliberate gap. */
  alignment?: number;
  /** sh_offset: which of several segments at one run address (overlays) holds the section. */
  offset?: number;
}

/** A program header (only PT_LOAD entries are used). */
export interface LayoutSegment {
  type: string;
  virtAddr: number;
  physAddr: number;
  fileSize: number;
  memSize: number;
  /** p_offset: tells apart segments that share run addresses (overlays). */
  offset?: number;
  /** 'R', 'RW', 'RX', 'RWX' … as in ProgramHeader.flags. */
  flags: string;
}

/** A memory region: LinkerRegion from the linker-script reader fits as is. */
export interface LayoutRegion {
  name: string;
  origin: number;
  length: number;
  kind?: 'flash' | 'ram' | 'rom' | 'unknown';
  /**
   * The region this one lies in as the configuration declares it (an Arm execution region running
   * in place in its load region). The parent is a container that also holds what is placed in it
   * directly (load images of execution regions that run elsewhere).
   */
  parent?: string;
}

/** Placement by output-section name, or per section (ILINK names the pieces of a region alike). */
export type SectionAssignments =
  | ReadonlyMap<string, SectionAssignment>
  | ((section: LayoutSection) => SectionAssignment | undefined);

/**
 * Where a linker configuration places one output section (GNU ld `> REGION AT> LOAD_REGION`,
 * IAR ICF `place in` + `initialize by copy`, the execution and load regions of an Arm scatter
 * file). Region names must be names of `BuildLayoutOptions.regions`.
 */
export interface SectionAssignment {
  /** Region charged with the run address (VMA). Absent: the configuration does not say, so the
   * section goes to the smallest region holding its address. */
  region?: string;
  /** Region charged with the load image, for a section loaded elsewhere than it runs (`.data`
   * initial values in flash). Absent: a load image the linker does not charge to any region
   * (`AT(expr)`); it is then listed in the region holding its load address. */
  loadRegion?: string;
}

/**
 * How a region's used size is measured from the sections assigned to it:
 * - `extent`: as GNU ld's `--print-memory-usage`: from the region's origin to the end of the
 *   last section assigned to it, in section order (so padding between sections counts);
 * - `occupied`: the bytes the sections assigned to it cover.
 */
export type RegionUsage = 'extent' | 'occupied';

export interface BuildLayoutOptions {
  sections: LayoutSection[];
  segments: LayoutSegment[];
  /** From the linker configuration; none means the default Code/Data regions (with a warning). */
  regions?: LayoutRegion[];
  /** `--limits`: regions whose LENGTH replaces the primary one (same names, same ORIGIN). */
  limits?: LayoutRegion[];
  /** `--skip-section`: exact names removed before mapping. */
  skipSections?: string[];
  /**
   * Explicit placement by output-section name, from the linker configuration. Sections without
   * an entry (or whose entry names no region) go to the smallest region holding their address
   * (compat spec §4.6); so does everything when this is absent.
   */
  assignments?: SectionAssignments;
  /** How assigned sections are measured (default `extent`, GNU ld's figure). */
  usage?: RegionUsage;
}

/**
 * A region of `memory_layout`: the MemBrowse fields plus how `used_size` was measured
 * (`used_size_basis`, `linker_used_size`), containers (`container`, `children`, and `parent` on
 * each child: a container holds nothing itself and its `used_size` is the sum of its
 * children's, so consumers adding regions up must skip containers or children) and `placeholder`
 * for zero-length regions that only reserve a name (nothing used in them).
 */
export type MemoryLayoutRegion = ReportRegion & { used_size_basis: UsedSizeBasis };

export interface MemoryLayoutResult {
  memoryLayout: Record<string, MemoryLayoutRegion>;
  warnings: string[];
}
