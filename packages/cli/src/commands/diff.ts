import { readFileSync } from 'node:fs';
import type { MemoryReport } from '@memtrail/contracts';
import { diffReports } from '@memtrail/report';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { RuntimeError, type CliIo } from '../context.js';
import { renderDiffText } from '../render/diff-text.js';
import { resolvePath } from './options.js';

export const diffSpec: CommandSpec = {
  name: 'diff',
  summary:
    'Compare two reports written by `report --json` (or upload envelopes): regions, sections ' +
    'and symbols added, removed, modified or moved.',
  usage: 'memtrail diff <old.json> <new.json> [--json] [--all-symbols]',
  positionals: [
    { name: 'old', description: 'the report to compare against' },
    { name: 'new', description: 'the report being compared' },
  ],
  options: [
    { name: 'json', kind: 'boolean', description: 'print the diff as JSON' },
    {
      name: 'all-symbols',
      kind: 'boolean',
      description: 'list every changed symbol instead of the 20 largest changes',
    },
  ],
};

/** A report file: the report itself, or an upload envelope `{metadata, memory_analysis}`. */
function readReport(path: string, label: string): MemoryReport {
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

export async function runDiff(args: ParsedArgs, io: CliIo): Promise<number> {
  const [oldPath, newPath] = args.positionals;
  if (!oldPath || !newPath) throw new UsageError('give two report files', 'diff');
  const oldReport = readReport(resolvePath(io.cwd, oldPath), oldPath);
  const newReport = readReport(resolvePath(io.cwd, newPath), newPath);
  const diff = diffReports(oldReport, newReport);
  io.stdout.write(
    args.flag('json')
      ? `${JSON.stringify(diff, null, 2)}\n`
      : renderDiffText(
          diff,
          { old: oldPath, new: newPath },
          { allSymbols: args.flag('all-symbols') },
        ),
  );
  return 0;
}
