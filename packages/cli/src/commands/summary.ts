import { readFileSync } from 'node:fs';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { RuntimeError, type CliIo } from '../context.js';
import { renderSummaryMarkdown } from '../render/summary-markdown.js';
import { fetchSummary } from '../upload/summary.js';
import { API_OPTIONS, RENDER_OPTIONS, renderOptions, resolvePath } from './options.js';

export const summarySpec: CommandSpec = {
  name: 'summary',
  summary:
    "Fetch the server's summary of a commit (every target) as a Markdown PR comment or JSON.",
  usage: 'memtrail summary <commit-sha> [--markdown | --json] [--template FILE]',
  positionals: [{ name: 'commit-sha', description: 'the commit to summarise' }],
  options: [
    ...API_OPTIONS,
    { name: 'json', kind: 'boolean', description: 'print the raw server response' },
    { name: 'markdown', kind: 'boolean', description: 'print a Markdown PR comment (default)' },
    ...RENDER_OPTIONS,
  ],
};

/** A user's Markdown template, read relative to the working directory. */
export function readTemplate(args: ParsedArgs, io: CliIo): string | undefined {
  const template = args.string('template');
  if (template === undefined) return undefined;
  try {
    return readFileSync(resolvePath(io.cwd, template), 'utf8');
  } catch (error) {
    throw new RuntimeError(`cannot read the template ${template}: ${(error as Error).message}`);
  }
}

export async function runSummary(args: ParsedArgs, io: CliIo): Promise<number> {
  const sha = args.positionals[0];
  if (!sha) throw new UsageError('missing the commit SHA', 'summary');
  if (args.flag('json') && (args.flag('markdown') || args.has('template'))) {
    throw new UsageError('--json excludes --markdown and --template', 'summary');
  }
  const template = readTemplate(args, io);
  const options = renderOptions(args);
  const body = await fetchSummary(
    {
      sha,
      apiUrl: args.string('api-url'),
      project: args.string('project'),
      apiKeyEnv: args.string('api-key-env'),
      command: 'summary',
    },
    io,
  );
  if (args.flag('json')) {
    io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  try {
    io.stdout.write(renderSummaryMarkdown(body.data, template, options));
  } catch (error) {
    throw new RuntimeError(
      `cannot render ${args.string('template') ?? 'the summary'}: ${(error as Error).message}`,
    );
  }
  return 0;
}
