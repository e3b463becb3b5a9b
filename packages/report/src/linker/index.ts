export {
  LinkerScriptError,
  formatPosition,
  type LinkerScriptErrorCode,
  type LinkerWarning,
  type SourcePosition,
} from './errors.js';
export { formatAttributesLikeLdMap, type RegionAttributes, type RegionKind } from './attributes.js';
export {
  linkerInputs,
  loadLinkerScripts,
  type LinkerInput,
  type LinkerRegion,
  type LinkerScriptModel,
  type LinkerScriptOptions,
  type LinkerSymbol,
  type SectionPlacement,
} from './load.js';
export { sectionAssignments } from './section-assignments.js';
export { listMemoryRegions, type ListRegionsOptions, type MemoryRegionListing } from './regions.js';
