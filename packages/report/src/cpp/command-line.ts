/**
 * The first line of a scatter file that armlink preprocesses, `#! armcc -E …` or
 * `#! armclang -E --target=… -mcpu=… -xc …`: which tool, its -I directories and -D/-U options.
 */

export interface PreprocessorCommand {
  /** As written after `#!`, e.g. `armclang`. */
  tool: string;
  /** -I directories in order (relative ones are relative to the link's working directory). */
  includeDirs: string[];
  /** -D NAME[=VALUE] and -U NAME in command-line order; an undefined value means -U. */
  definitions: Array<[name: string, value: string | undefined]>;
  /** -mcmse: armclang then defines __ARM_FEATURE_CMSE as 3. */
  cmse: boolean;
}

function words(text: string): string[] {
  const result: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of text.matchAll(pattern)) result.push(match[1] ?? match[2] ?? match[3]!);
  return result;
}

/** Reads `#! tool options…`; undefined when the line is not a `#!` line. */
export function parsePreprocessorLine(line: string): PreprocessorCommand | undefined {
  const match = /^#!\s*(.*)$/.exec(line.replace(/^\uFEFF/, '').trimEnd());
  if (!match) return undefined;
  const [tool = '', ...args] = words(match[1]!);
  const command: PreprocessorCommand = {
    tool: tool.replace(/^.*[\\/]/, '').replace(/\.exe$/i, ''),
    includeDirs: [],
    definitions: [],
    cmse: args.includes('-mcmse'),
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = (flag: string): string | undefined =>
      arg === flag ? args[++i] : arg.startsWith(flag) ? arg.slice(flag.length) : undefined;
    const include = value('-I');
    if (include !== undefined) {
      command.includeDirs.push(include);
      continue;
    }
    const define = value('-D');
    if (define !== undefined) {
      const eq = define.indexOf('=');
      command.definitions.push(
        eq < 0 ? [define, '1'] : [define.slice(0, eq), define.slice(eq + 1)],
      );
      continue;
    }
    const undefine = value('-U');
    if (undefine !== undefined) command.definitions.push([undefine, undefined]);
  }
  return command;
}

/**
 * Macros the compilers predefine that scatter files test. Values are those of Arm Compiler 6.22 and
 * 5.06u7; `--def` overrides them like a later -D would.
 */
export function predefinedMacros(command: PreprocessorCommand): Array<[string, string]> {
  if (/armclang/i.test(command.tool)) {
    return [
      ['__ARMCC_VERSION', '6220000'],
      ['__clang__', '1'],
      ['__arm__', '1'],
      ...(command.cmse ? [['__ARM_FEATURE_CMSE', '3'] as [string, string]] : []),
    ];
  }
  if (/armcc/i.test(command.tool)) {
    return [
      ['__ARMCC_VERSION', '5060960'],
      ['__CC_ARM', '1'],
      ['__arm__', '1'],
      ['__arm', '1'],
    ];
  }
  return [];
}
