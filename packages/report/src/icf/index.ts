export type { SelectorItem } from './ast.js';
export { IcfError, type IcfWarning } from './errors.js';
export type { Range } from './evaluate.js';
export { icfRegionKinds } from './kinds.js';
export {
  loadIcfFiles,
  type IcfBlock,
  type IcfModel,
  type IcfOptions,
  type IcfPlacement,
  type IcfRegionDefinition,
} from './load.js';
