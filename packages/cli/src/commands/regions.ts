import { parseDefines, UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { RuntimeError, type CliIo } from '../context.js';
import { parseRegions } from '../engine.js';
import { LINKER_OPTIONS, requireFile, resolvePath } from './options.js';

export const regionsSpec: CommandSpec = {
  name: 'regions',
  summary:
    'Print the MEMORY regions of GNU linker scripts as JSON [{name, origin, length, attributes}].',
  usage: 'memtrail regions <linker-script…> [--def NAME=VALUE]… [-L DIR]…',
  positionals: [
    { name: 'linker-script', description: 'GNU linker scripts, in link order', variadic: true },
  ],
  options: LINKER_OPTIONS,
};

export async function runRegions(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.positionals.length === 0)
    throw new UsageError('give at least one linker script', 'regions');
  const scripts = args.positionals.map((s) => resolvePath(io.cwd, s));
  for (const script of scripts) requireFile(script, 'linker script');
  const defines = parseDefines(args.list('def'), 'regions');
  const searchPaths = args.list('library-path').map((d) => resolvePath(io.cwd, d));
  let regions;
  try {
    regions = parseRegions(scripts, defines, searchPaths, io.cwd);
  } catch (error) {
    throw new RuntimeError(
      `cannot read the regions of ${args.positionals.join(', ')}: ${(error as Error).message}`,
    );
  }
  io.stdout.write(`${JSON.stringify(regions, null, 2)}\n`);
  return 0;
}
