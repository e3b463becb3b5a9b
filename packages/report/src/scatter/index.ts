export type { InputSectionDescription } from './ast.js';
export { ScatterError } from './errors.js';
export {
  loadScatterFile,
  readScatter,
  type ScatterModel,
  type ScatterOptions,
  type ScatterRegion,
} from './load.js';
export type { ScatterImage, ScatterImageSection, ScatterWarning } from './resolve.js';
