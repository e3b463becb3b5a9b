import { diffReports } from '@memtrail/report';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import type { CliIo } from '../context.js';
import { renderDiffText } from '../render/diff-text.js';
import { resolvePath } from './options.js';
import { readReportFile } from './report-file.js';

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

export async function runDiff(args: ParsedArgs, io: CliIo): Promise<number> {
  const [oldPath, newPath] = args.positionals;
  if (!oldPath || !newPath) throw new UsageError('give two report files', 'diff');
  const oldReport = readReportFile(resolvePath(io.cwd, oldPath), oldPath);
  const newReport = readReportFile(resolvePath(io.cwd, newPath), newPath);
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
