export { buildMemoryLayout, LayoutError } from './build.js';
export type {
  BuildLayoutOptions,
  LayoutRegion,
  LayoutSection,
  LayoutSegment,
  MemoryLayoutRegion,
  MemoryLayoutResult,
} from './types.js';
