import { parseDefines, UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { RuntimeError, warn, type CliIo } from '../context.js';
import { parseRegions } from '../engine.js';
import { LINKER_OPTIONS, requireFile, resolvePath } from './options.js';

export const regionsSpec: CommandSpec = {
  name: 'regions',
  summary:
    'Print the memory regions of a linker configuration (GNU ld script, IAR .icf, Arm scatter file) as JSON [{name, origin, length, attributes, …}].',
  usage: 'memtrail regions <linker-config…> [--def NAME=VALUE]… [-L DIR]… [--elf FILE]',
  positionals: [
    {
      name: 'linker-config',
      description: 'GNU ld scripts in link order, IAR ICF files, or one Arm scatter file',
      variadic: true,
    },
  ],
  options: [
    ...LINKER_OPTIONS,
    {
      name: 'elf',
      kind: 'string',
      valueName: 'FILE',
      description:
        'the linked ELF: resolves scatter-file values that depend on the image (ImageLimit(), +0 bases)',
    },
  ],
};

export async function runRegions(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals.length === 0)
    throw new UsageError('give at least one linker configuration file', 'regions');
  const files = args.positionals.map((s) => resolvePath(io.cwd, s));
  for (const file of files) requireFile(file, 'linker configuration file');
  const elf = args.string('elf');
  const elfPath = elf === undefined ? undefined : resolvePath(io.cwd, elf);
  if (elfPath) requireFile(elfPath, 'ELF file');
  let result;
  try {
    result = parseRegions({
      files,
      defines: parseDefines(args.list('def'), 'regions'),
      searchPaths: args.list('library-path').map((d) => resolvePath(io.cwd, d)),
      cwd: io.cwd,
      ...(elfPath && { elfPath }),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new RuntimeError(
      `cannot read the regions of ${args.positionals.join(', ')}: ${(error as Error).message}`,
    );
  }
  for (const message of result.warnings) warn(io, message);
  io.stdout.write(`${JSON.stringify(result.regions, null, 2)}\n`);
  return 0;
}
