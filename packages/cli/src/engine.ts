/**
 * The CLI's view of the report engine (`@memtrail/report`): one place that maps CLI options onto
 * the engine's options, so commands never depend on the engine's option names.
 */
import { readFileSync } from 'node:fs';
import {
  elfLayoutImage,
  generateReport,
  listLayoutRegions,
  parseElf,
  relativeSource,
  type RegionListing,
} from '@memtrail/report';
import type { MemoryReport } from '@memtrail/contracts';

export interface ReportRequest {
  elfPath: string;
  /** `file_path` in the report: the ELF as the user wrote it (relative stays relative). */
  filePath: string;
  /** Directory the build ran in: relative INCLUDEs resolve here first. */
  cwd: string;
  linkerScripts: string[];
  /** `-L` directories searched for INCLUDEd scripts. */
  searchPaths: string[];
  defines: Record<string, string>;
  mapFile?: string;
  skipSections: string[];
  limits?: string;
  skipLineProgram: boolean;
  /** `--source-root`: the build folder stripped from source paths. */
  sourceRoot?: string;
}

function defsyms(defines: Record<string, string>): string[] {
  return Object.entries(defines).map(([name, value]) => `${name}=${value}`);
}

export function buildReport(
  request: ReportRequest,
  onWarning: (message: string) => void,
): MemoryReport {
  const report = generateReport({
    elf: request.elfPath,
    filePath: request.filePath,
    cwd: request.cwd,
    linkerScripts: request.linkerScripts,
    searchPaths: request.searchPaths,
    defs: defsyms(request.defines),
    limits: request.limits ? [request.limits] : [],
    mapFile: request.mapFile,
    skipSections: request.skipSections,
    skipLineProgram: request.skipLineProgram,
    onWarning,
  });
  const root = request.sourceRoot;
  if (root) {
    for (const symbol of report.symbols)
      symbol.source_file = relativeSource(symbol.source_file, root);
  }
  return report;
}

export interface RegionsRequest {
  files: string[];
  defines: Record<string, string>;
  searchPaths: string[];
  cwd: string;
  /** The linked ELF, for scatter-file values that depend on the image (ImageLimit, `+0`). */
  elfPath?: string;
}

/** Regions of the linker configuration in declaration order, and what it made us warn about. */
export function parseRegions(request: RegionsRequest): {
  regions: RegionListing[];
  warnings: string[];
} {
  return listLayoutRegions({
    files: request.files,
    definitions: Object.entries(request.defines),
    searchPaths: request.searchPaths,
    cwd: request.cwd,
    ...(request.elfPath !== undefined && {
      image: elfLayoutImage(parseElf(readFileSync(request.elfPath))),
    }),
  });
}
