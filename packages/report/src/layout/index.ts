export { buildMemoryLayout, LayoutError, loadAddressOf } from './build.js';
export type {
  BuildLayoutOptions,
  LayoutRegion,
  LayoutSection,
  LayoutSegment,
  MemoryLayoutRegion,
  MemoryLayoutResult,
  RegionUsage,
  SectionAssignment,
  SectionAssignments,
} from './types.js';
