import type { MemoryReport } from '@memtrail/contracts';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import {
  appendStepSummary,
  apiKey,
  apiUrl,
  chosenProject,
  debug,
  info,
  RuntimeError,
  userAgent,
  warn,
  type CliIo,
} from '../context.js';
import { detectGit } from '../git/metadata.js';
import { renderReportText } from '../render/report-text.js';
import { buildEnvelope, failedBuildReport, identicalReport } from '../upload/envelope.js';
import { HttpError, retryPolicyFromEnv } from '../upload/http.js';
import { alertLines, budgetsOf, rawResponse, resultLine } from '../upload/result.js';
import { budgetLines } from '../upload/protocol.js';
import { postUpload, UploadRejected } from '../upload/upload.js';
import { generateReport } from './generate.js';
import { ANALYSIS_OPTIONS, gitFlags, resolvePath, UPLOAD_OPTIONS } from './options.js';
import { readReportFile } from './report-file.js';

const FROM_JSON = {
  name: 'from-json',
  kind: 'string',
  valueName: 'FILE',
  description: 'use a report written by `report --json` (or an upload envelope) instead of an ELF',
} as const;

const POSITIONALS = [
  { name: 'elf', description: 'the firmware ELF (not needed with --identical or --build-failed)' },
  {
    name: 'linker-config',
    description: 'GNU ld scripts, IAR .icf files or an Arm scatter file, one argument each',
    variadic: true,
  },
];

export const reportSpec: CommandSpec = {
  name: 'report',
  summary:
    'Analyse an ELF against its linker configuration; print the report, or upload it with --upload.',
  usage: 'memtrail report <elf> [linker-config…] [options]',
  positionals: POSITIONALS,
  options: [
    ...ANALYSIS_OPTIONS,
    FROM_JSON,
    {
      name: 'json',
      kind: 'boolean',
      description: 'print the report JSON (indented) instead of text',
    },
    {
      name: 'all-symbols',
      kind: 'boolean',
      description: 'list every symbol instead of the top 20',
    },
    {
      name: 'upload',
      kind: 'boolean',
      description: 'upload the report (see memtrail help upload)',
    },
    ...UPLOAD_OPTIONS,
  ],
};

export const uploadSpec: CommandSpec = {
  name: 'upload',
  summary:
    'Analyse an ELF and upload the report for one commit and target. The API key comes from ' +
    'MEMTRAIL_API_KEY (or MEMBROWSE_API_KEY, or the variable named by --api-key-env).',
  usage: 'memtrail upload <elf> [linker-config…] --target-name NAME [options]',
  positionals: POSITIONALS,
  options: [...ANALYSIS_OPTIONS, FROM_JSON, ...UPLOAD_OPTIONS],
};

export async function runReport(args: ParsedArgs, io: CliIo): Promise<number> {
  const upload = args.command === 'upload' || args.flag('upload');
  const metadataOnly = args.flag('identical') || args.flag('build-failed');
  if (args.flag('identical') && args.flag('build-failed')) {
    throw new UsageError('--identical and --build-failed exclude each other', args.command);
  }
  if (metadataOnly && !upload) {
    throw new UsageError(
      '--identical and --build-failed only make sense with --upload',
      args.command,
    );
  }
  const [elf, ...scripts] = args.positionals;
  const fromJson = args.string('from-json');
  if (fromJson !== undefined && (elf !== undefined || metadataOnly)) {
    throw new UsageError(
      '--from-json replaces the ELF and linker scripts, and excludes --identical and --build-failed',
      args.command,
    );
  }
  const analyse = (): Promise<MemoryReport> | MemoryReport => {
    if (fromJson !== undefined) return readReportFile(resolvePath(io.cwd, fromJson), fromJson);
    if (!elf) throw new UsageError('missing the ELF file argument', args.command);
    return generateReport(args, io, io.cwd, elf, scripts);
  };
  if (!upload) {
    const report = await analyse();
    io.stdout.write(
      args.flag('json')
        ? `${JSON.stringify(report, null, 2)}\n`
        : renderReportText(report, { allSymbols: args.flag('all-symbols') }),
    );
    return 0;
  }

  const target = args.requireString('target-name', 'to upload');
  const key = apiKey(io.env, args.string('api-key-env'), args.command);
  let report: MemoryReport;
  if (args.flag('identical')) report = identicalReport();
  else if (args.flag('build-failed')) report = failedBuildReport(elf ?? null);
  else report = await analyse();

  const { git } = await detectGit({ cwd: io.cwd, env: io.env, ...gitFlags(args) });
  const envelope = buildEnvelope({
    report,
    git,
    targetName: target,
    identical: args.flag('identical'),
    buildFailed: args.flag('build-failed') ? true : undefined,
  });
  const sha = git.commit_hash;
  const rawOutput = args.flag('output-raw-response');
  let response;
  try {
    response = await postUpload({
      apiUrl: apiUrl(args.string('api-url'), io.env),
      apiKey: key,
      project: chosenProject(args.string('project'), io.env),
      envelope,
      userAgent: userAgent(io.env),
      policy: retryPolicyFromEnv(io.env),
      log: (line) => info(io, `(${sha ?? 'no commit'}) ${line}`),
    });
  } catch (error) {
    if (error instanceof HttpError || error instanceof UploadRejected) {
      throw new RuntimeError(`upload failed: ${error.message}`);
    }
    throw error;
  }

  debug(io, `server message: ${String(response.message ?? '')}`);
  debug(io, `comparison URL: ${response.data?.comparison_url ?? '(none)'}`);
  debug(io, `changes summary: ${JSON.stringify(response.data?.changes_summary ?? {})}`);
  if (rawOutput) {
    io.stdout.write(`${JSON.stringify(rawResponse(response, target, git.pr_number), null, 2)}\n`);
  }
  if (response.data?.is_overwritten) {
    warn(io, `this upload overwrote existing data for ${target} @ ${sha ?? 'unknown commit'}`);
  }
  // With --output-raw-response stdout must stay pure JSON for the file the CI step writes.
  (rawOutput ? io.stderr : io.stdout).write(`${resultLine(response, target, sha)}\n`);
  const budgets = budgetsOf(response);
  appendStepSummary(
    io,
    [
      resultLine(response, target, sha),
      ...budgetLines(budgets).map((l) => `- :warning: ${l}`),
    ].join('\n\n'),
  );
  if (budgets.length > 0) {
    if (args.flag('dont-fail-on-alerts')) {
      warn(io, `${budgets.length} budget(s) exceeded (not failing: --dont-fail-on-alerts)`);
      for (const line of budgetLines(budgets)) io.stderr.write(`  ${line}\n`);
      return 0;
    }
    for (const line of alertLines(budgets, sha)) io.stderr.write(`${line}\n`);
    return 1;
  }
  return 0;
}
