import type { MemoryReport } from '@memtrail/contracts';
import { UsageError, type ParsedArgs } from '../args.js';
import { RuntimeError, warn, type CliIo } from '../context.js';
import { buildReport } from '../engine.js';
import { reportRequest } from './options.js';

/** Default regions carry the section permissions as their type instead of a script's region. */
function usesDefaultRegions(report: MemoryReport): boolean {
  const regions = Object.values(report.memory_layout);
  return regions.length > 0 && regions.every((r) => r.type === 'rx' || r.type === 'rw');
}

/**
 * Generates the report for one ELF and refuses to be wrong by silence: without real regions the
 * footprint is never checked against the device's memory, so the engine always warns (and with
 * --require-regions it is an error).
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
    report = buildReport(request, (message) => warn(io, message));
  } catch (error) {
    throw new RuntimeError(`cannot generate the report for ${elf}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // The engine has already warned about default regions; --require-regions makes it an error.
  if (args.flag('require-regions') && usesDefaultRegions(report)) {
    throw new RuntimeError(
      `no MEMORY regions found in ${scripts.join(', ')}: the footprint would NOT be checked against the device's real memory regions`,
    );
  }
  return report;
}
