/**
 * The CLI's view of the report engine (`@memtrail/report`): one place that maps CLI options onto
 * the engine's functions, so commands never depend on the engine's option names.
 */
import * as engine from '@memtrail/report';
import type { MemoryReport } from '@memtrail/contracts';

export interface ReportRequest {
  elfPath: string;
  linkerScripts: string[];
  /** `-L` directories searched for INCLUDEd scripts. */
  searchPaths: string[];
  defines: Record<string, string>;
  mapFile?: string;
  skipSections: string[];
  limits?: string;
  skipLineProgram: boolean;
}

export type RegionDefinition = engine.MemoryRegionListing;

export class EngineUnavailable extends Error {
  constructor(what: string) {
    super(`this build of memtrail has no ${what} in @memtrail/report`);
    this.name = 'EngineUnavailable';
  }
}

type AnyFunction = (...args: unknown[]) => unknown;

function engineFunction(name: string): AnyFunction {
  const fn = (engine as Record<string, unknown>)[name];
  if (typeof fn !== 'function') throw new EngineUnavailable(`${name}()`);
  return fn as AnyFunction;
}

/**
 * generateReport() takes its region mapping as a LayoutBuilder. The engine exports
 * buildMemoryLayout() with its own options, but not yet the builder that loads the linker scripts
 * and feeds it; until `@memtrail/report` exports `layoutBuilder`, reports cannot be generated.
 */
function layoutBuilder(): engine.LayoutBuilder {
  return engineFunction('layoutBuilder') as engine.LayoutBuilder;
}

export async function buildReport(
  request: ReportRequest,
  onWarning: (message: string) => void,
): Promise<MemoryReport> {
  if (request.mapFile) engineFunction('applyMapFile');
  const report = engine.generateReport({
    elf: request.elfPath,
    linkerScripts: request.linkerScripts,
    defs: Object.entries(request.defines).map(([name, value]) => `${name}=${value}`),
    limits: request.limits ? [request.limits] : [],
    skipSections: request.skipSections,
    skipLineProgram: request.skipLineProgram,
    buildLayout: layoutBuilder(),
    onWarning,
  });
  if (request.mapFile) {
    return (await engineFunction('applyMapFile')(report, request.mapFile)) as MemoryReport;
  }
  return report;
}

/** MEMORY regions of the scripts in declaration order; `defines` fill names the scripts leave undefined. */
export function parseRegions(
  scripts: string[],
  defines: Record<string, string>,
  searchPaths: string[],
  cwd: string,
): RegionDefinition[] {
  return engine.listMemoryRegions({
    scripts,
    defsyms: Object.entries(defines).map(([name, value]) => `${name}=${value}`),
    searchPaths,
    cwd,
  });
}
