export { buildMemoryLayout, LayoutError } from './build.js';
export type {
  BuildLayoutOptions,
  LayoutRegion,
  LayoutSection,
  LayoutSegment,
  MemoryLayoutRegion,
  MemoryLayoutResult,
  RegionUsage,
  SectionAssignment,
} from './types.js';
