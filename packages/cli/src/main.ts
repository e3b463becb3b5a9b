import { formatHelp, parseArgs, UsageError, type CommandSpec, type ParsedArgs } from './args.js';
import { LOG_LEVELS, log, RuntimeError, VERSION, type CliIo, type LogLevel } from './context.js';
import { commentSpec, runComment } from './commands/comment.js';
import { diffSpec, runDiff } from './commands/diff.js';
import { onboardSpec, runOnboard } from './commands/onboard.js';
import { regionsSpec, runRegions } from './commands/regions.js';
import { runSummary, summarySpec } from './commands/summary.js';
import { reportSpec, runReport, uploadSpec } from './commands/report.js';

interface Command {
  spec: CommandSpec;
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

const COMMANDS: Command[] = [
  { spec: reportSpec, run: runReport },
  { spec: uploadSpec, run: runReport },
  { spec: onboardSpec, run: runOnboard },
  { spec: regionsSpec, run: runRegions },
  { spec: summarySpec, run: runSummary },
  { spec: commentSpec, run: runComment },
  { spec: diffSpec, run: runDiff },
];

function overview(): string {
  const lines = [
    `memtrail ${VERSION}: firmware memory footprint reports from ELF files and their linker configuration (GNU ld, IAR ICF, Arm scatter)`,
    '',
    'Usage: memtrail [-v LEVEL] <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map(({ spec }) => `  ${spec.name.padEnd(10)} ${spec.summary}`),
    `  ${'help'.padEnd(10)} Show help for a command: memtrail help <command>`,
    '',
    `Global option (before the command): -v, --verbose LEVEL  log level: ${LOG_LEVELS.join(', ')} (default INFO).`,
    'Logs go to stderr as "LEVEL: message"; reports and results go to stdout.',
    '',
    'Exit codes: 0 success, 1 failure (including exceeded budgets), 2 usage error.',
  ];
  return lines.join('\n') + '\n';
}

function find(name: string | undefined): Command | undefined {
  return COMMANDS.find((c) => c.spec.name === name);
}

/** A leading `-v LEVEL`, `--verbose LEVEL` or `--verbose=LEVEL`; the rest of argv after it. */
function globalLogLevel(argv: readonly string[]): { level?: LogLevel; rest: readonly string[] } {
  const [first, second] = argv;
  let value: string | undefined;
  let rest = argv;
  if (first === '-v' || first === '--verbose') {
    if (second === undefined)
      throw new UsageError(`${first} needs a level (${LOG_LEVELS.join(', ')})`);
    value = second;
    rest = argv.slice(2);
  } else if (first?.startsWith('--verbose=')) {
    value = first.slice('--verbose='.length);
    rest = argv.slice(1);
  } else {
    return { rest };
  }
  const level = LOG_LEVELS.find((l) => l === value.toUpperCase());
  if (!level) {
    throw new UsageError(`unknown log level '${value}' (choose ${LOG_LEVELS.join(', ')})`);
  }
  return { level, rest };
}

/** Runs one command line and returns the exit code; never calls process.exit. */
export async function main(argv: readonly string[], baseIo: CliIo): Promise<number> {
  let io = baseIo;
  try {
    const global = globalLogLevel(argv);
    if (global.level) io = { ...baseIo, logLevel: global.level };
    const [first, ...rest] = global.rest;
    if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
      const topic = first === 'help' ? rest[0] : undefined;
      if (topic === undefined) {
        io.stdout.write(overview());
        return first === undefined ? 2 : 0;
      }
      const command = find(topic);
      if (!command) throw new UsageError(`unknown command '${topic}'`);
      io.stdout.write(formatHelp(command.spec));
      return 0;
    }
    if (first === '--version' || first === '-V' || first === 'version') {
      io.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const command = find(first);
    if (!command) throw new UsageError(`unknown command '${first}'`);
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout.write(formatHelp(command.spec));
      return 0;
    }
    if (rest.some((a) => a === '-v' || a === '--verbose' || a.startsWith('--verbose='))) {
      throw new UsageError(
        `-v/--verbose is a global option: put it before the command (memtrail -v DEBUG ${first} …)`,
        first,
      );
    }
    return await command.run(parseArgs(command.spec, rest), io);
  } catch (error) {
    if (error instanceof UsageError) {
      const where = error.command ? `memtrail ${error.command}` : 'memtrail';
      io.stderr.write(`${where}: ${error.message}\n`);
      io.stderr.write(
        `Run 'memtrail help${error.command ? ` ${error.command}` : ''}' for usage.\n`,
      );
      return 2;
    }
    if (error instanceof RuntimeError) {
      log(io, 'ERROR', error.message);
      return 1;
    }
    log(io, 'ERROR', (error as Error).stack ?? String(error));
    return 1;
  }
}
