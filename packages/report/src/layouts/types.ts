import type { RegionKind } from '../linker/attributes.js';
import type { LayoutRegion, RegionUsage, SectionAssignments } from '../layout/index.js';
import type { LayoutFormat } from './detect.js';

/** A linker configuration, whatever its language, as the region mapping takes it. */
export interface LayoutDescription {
  format: LayoutFormat;
  regions: LayoutRegion[];
  /** Where the configuration puts each output section; absent: by address only. */
  assignments?: SectionAssignments;
  /** GNU ld's extent for GNU scripts; the bytes sections occupy for IAR and Arm layouts. */
  usage: RegionUsage;
  warnings: string[];
  files: string[];
}

/**
 * One row of `memtrail regions`: `{name, origin, length, attributes}` for every format, plus what
 * the format adds (`kind`; for scatter files `type` and `load_region`). `origin`/`length` are null
 * where the file alone does not give them (`unresolved` says why).
 */
export interface RegionListing {
  name: string;
  origin: number | null;
  length: number | null;
  attributes: string;
  /** What memory it is (from attributes, or what the file places there). */
  kind?: RegionKind;
  /** ICF: the region a piece `NAME#k` belongs to. */
  region?: string;
  /** Scatter files: load or execution region, and an execution region's load region. */
  type?: 'load' | 'execution';
  load_region?: string;
  /** Why `origin` or `length` is null. */
  unresolved?: string;
}
