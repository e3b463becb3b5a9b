import type { ReportRegion } from '@memtrail/contracts';

/** An allocated section as the layout needs it (maps 1:1 from an ELF section header). */
export interface LayoutSection {
  name: string;
  /** NOBITS sections (.bss) occupy memory but have no load image. */
  type: 'PROGBITS' | 'NOBITS' | string;
  flags: { alloc: boolean; write: boolean; exec: boolean };
  address: number;
  size: number;
}

/** A program header (only PT_LOAD entries are used). */
export interface LayoutSegment {
  type: string;
  virtAddr: number;
  physAddr: number;
  fileSize: number;
  memSize: number;
  /** 'R', 'RW', 'RX', 'RWX' … as in ProgramHeader.flags. */
  flags: string;
}

/** A memory region: LinkerRegion from the linker-script reader fits as is. */
export interface LayoutRegion {
  name: string;
  origin: number;
  length: number;
  kind?: 'flash' | 'ram' | 'rom' | 'unknown';
}

export interface BuildLayoutOptions {
  sections: LayoutSection[];
  segments: LayoutSegment[];
  /** From the linker scripts; none means the default Code/Data regions (with a warning). */
  regions?: LayoutRegion[];
  /** `--limits`: regions whose LENGTH replaces the primary one (same names, same ORIGIN). */
  limits?: LayoutRegion[];
  /** `--skip-section`: exact names removed before mapping. */
  skipSections?: string[];
}

/**
 * A region of `memory_layout`: the MemBrowse fields plus, for regions that contain other regions,
 * `children` (direct children, by name) and `own_used_size` (sections attributed to the region
 * itself). For every region `used_size` means the bytes in use inside its address range, so a
 * parent's `used_size` is its own sections plus its children's `used_size` (MemBrowse writes 0
 * there). Child regions name their `parent`; consumers adding regions up must skip children.
 */
export interface MemoryLayoutRegion extends ReportRegion {
  parent?: string;
  children?: string[];
  own_used_size?: number;
}

export interface MemoryLayoutResult {
  memoryLayout: Record<string, MemoryLayoutRegion>;
  warnings: string[];
}
