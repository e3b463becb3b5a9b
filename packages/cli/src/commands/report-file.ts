import { readFileSync } from 'node:fs';
import type { MemoryReport } from '@memtrail/contracts';
import { RuntimeError } from '../context.js';

/** A report file: the report itself, or an upload envelope `{metadata, memory_analysis}`. */
export function readReportFile(path: string, label: string): MemoryReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RuntimeError(`cannot read the report ${label}: ${(error as Error).message}`);
  }
  const candidate =
    parsed && typeof parsed === 'object' && 'memory_analysis' in parsed
      ? (parsed as { memory_analysis: unknown }).memory_analysis
      : parsed;
  const report = candidate as Partial<MemoryReport> | null;
  if (
    !report ||
    typeof report !== 'object' ||
    !Array.isArray(report.symbols) ||
    typeof report.memory_layout !== 'object' ||
    report.memory_layout === null
  ) {
    throw new RuntimeError(
      `${label} is not a memory report (expected symbols[] and memory_layout, as written by memtrail report --json)`,
    );
  }
  return report as MemoryReport;
}
