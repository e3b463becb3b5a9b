import { formatHelp, parseArgs, UsageError, type CommandSpec, type ParsedArgs } from './args.js';
import { RuntimeError, VERSION, type CliIo } from './context.js';
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
];

function overview(): string {
  const lines = [
    `memtrail ${VERSION}: firmware memory footprint reports from ELF files and GNU linker scripts`,
    '',
    'Usage: memtrail <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map(({ spec }) => `  ${spec.name.padEnd(10)} ${spec.summary}`),
    `  ${'help'.padEnd(10)} Show help for a command: memtrail help <command>`,
    '',
    'Exit codes: 0 success, 1 failure (including exceeded budgets), 2 usage error.',
  ];
  return lines.join('\n') + '\n';
}

function find(name: string | undefined): Command | undefined {
  return COMMANDS.find((c) => c.spec.name === name);
}

/** Runs one command line and returns the exit code; never calls process.exit. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  try {
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
      io.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
