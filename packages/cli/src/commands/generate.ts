import type { MemoryReport } from '@memtrail/contracts';
import { UsageError, type ParsedArgs } from '../args.js';
import { RuntimeError, warn, type CliIo } from '../context.js';
import { buildReport, EngineUnavailable } from '../engine.js';
import { reportRequest } from './options.js';

/** Default regions carry the section permissions as their type instead of a script's region. */
function usesDefaultRegions(report: MemoryReport): boolean {
  const regions = Object.values(report.memory_layout);
  return regions.length > 0 && regions.every((r) => r.type === 'rx' || r.type === 'rw');
}

/**
 * Generates the report for one ELF and refuses to be wrong by silence: without real regions the
 * footprint is never checked against the device's memory, so that is always said (or, with
 * --require-regions, an error).
 */
export async function generateReport(
  args: ParsedArgs,
  io: CliIo,
  base: string,
  elf: string,
  scripts: string[],
): Promise<MemoryReport> {
  const request = reportRequest(args, base, elf, scripts);
  if (scripts.length === 0 && args.flag('require-regions')) {
    throw new UsageError('no linker scripts given and --require-regions is set', args.command);
  }
  let report: MemoryReport;
  try {
    report = await buildReport(request, (message) => warn(io, message));
  } catch (error) {
    if (error instanceof EngineUnavailable) throw new RuntimeError(error.message);
    throw new RuntimeError(`cannot generate the report for ${elf}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // The report names the ELF as the user wrote it, relative paths staying relative.
  report.file_path = elf;
  if (usesDefaultRegions(report)) {
    const why =
      scripts.length === 0
        ? 'no linker scripts given'
        : `no MEMORY regions found in ${scripts.join(', ')}`;
    const message = `${why}: using default Code/Data regions, so the footprint is NOT checked against the device's real memory regions`;
    if (args.flag('require-regions')) throw new RuntimeError(message);
    warn(io, message);
  }
  return report;
}
