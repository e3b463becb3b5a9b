import { readFileSync } from 'node:fs';
import type { SummaryResponse } from '@memtrail/contracts';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { apiKey, apiUrl, RuntimeError, userAgent, type CliIo } from '../context.js';
import { renderSummaryMarkdown } from '../render/summary-markdown.js';
import { retryPolicyFromEnv, sendWithRetry } from '../upload/http.js';
import { summaryUrl } from '../upload/protocol.js';
import { API_OPTIONS, resolvePath } from './options.js';

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
    {
      name: 'template',
      kind: 'string',
      valueName: 'FILE',
      description: 'Markdown template with {{ targets }}, {{ marker }}, {{ commit }}…',
    },
  ],
};

export async function runSummary(args: ParsedArgs, io: CliIo): Promise<number> {
  const sha = args.positionals[0];
  if (!sha) throw new UsageError('missing the commit SHA', 'summary');
  if (args.flag('json') && (args.flag('markdown') || args.has('template'))) {
    throw new UsageError('--json excludes --markdown and --template', 'summary');
  }
  const template = args.string('template');
  const templateText =
    template === undefined ? undefined : readFileSync(resolvePath(io.cwd, template), 'utf8');
  const key = apiKey(io.env, args.string('api-key-env'), 'summary');
  const url = summaryUrl(apiUrl(args.string('api-url'), io.env), sha);
  let body: unknown;
  try {
    const response = await sendWithRetry(
      {
        method: 'GET',
        url,
        headers: {
          Authorization: `Bearer ${key}`,
          'User-Agent': userAgent(io.env),
          Accept: 'application/json',
        },
      },
      retryPolicyFromEnv(io.env),
      () => undefined,
    );
    body = response.json;
  } catch (error) {
    throw new RuntimeError(`cannot fetch the summary: ${(error as Error).message}`);
  }
  const summary = body as (Partial<SummaryResponse> & { error?: string }) | undefined;
  if (!summary || summary.success !== true || !summary.data) {
    throw new RuntimeError(
      `the server did not return a summary for ${sha}: ${summary?.error ?? 'no success in the response'}`,
    );
  }
  if (args.flag('json')) {
    io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  try {
    io.stdout.write(renderSummaryMarkdown(summary.data, templateText));
  } catch (error) {
    throw new RuntimeError(
      `cannot render ${template ?? 'the summary'}: ${(error as Error).message}`,
    );
  }
  return 0;
}
