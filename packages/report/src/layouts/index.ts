export { detectLayoutFormat, type Detection, type LayoutFormat } from './detect.js';
export {
  layoutFormat,
  listLayoutRegions,
  loadLayout,
  type LayoutImage,
  type LayoutOptions,
} from './load.js';
export type { LayoutDescription, RegionListing } from './types.js';
export { PreprocessError } from '../cpp/index.js';
export { IcfError } from '../icf/index.js';
export { ScatterError } from '../scatter/index.js';
