import { linkerInputs, loadLinkerScripts, type LinkerScriptOptions } from './load.js';

/** One row of `memtrail regions` (JSON-ready). */
export interface MemoryRegionListing {
  name: string;
  origin: number;
  length: number;
  /** As written in the script, e.g. `rw!x`; '' when the region has none. */
  attributes: string;
}

export interface ListRegionsOptions extends Omit<LinkerScriptOptions, 'inputs'> {
  /** `-T` scripts, in order. */
  scripts: string[];
  /** `NAME=EXPR` definitions, applied before the scripts (so a script assignment wins). */
  defsyms?: string[];
}

/** Regions of the given scripts in declaration order; throws LinkerScriptError with file:line:column. */
export function listMemoryRegions(options: ListRegionsOptions): MemoryRegionListing[] {
  const { scripts, defsyms, ...rest } = options;
  const model = loadLinkerScripts({ ...rest, inputs: linkerInputs(scripts, defsyms) });
  return model.regions.map((region) => ({
    name: region.name,
    origin: region.origin,
    length: region.length,
    attributes: region.attributes.text,
  }));
}
