/**
 * Declarative command lines on Node's `util.parseArgs`. Each command declares its positionals and
 * options; parsing returns typed accessors or throws a UsageError (exit code 2) naming the
 * command, so every mistake on the command line is reported the same way.
 */

import { parseArgs as parseArgv, type ParseArgsConfig } from 'node:util';

export type OptionKind = 'boolean' | 'string' | 'list';

export interface OptionSpec {
  /** Long name without dashes, e.g. `map-file`. */
  name: string;
  kind: OptionKind;
  /** One-letter short form without the dash, e.g. `L`. */
  short?: string;
  /** Other long names accepted for the same option (compatibility spellings). */
  aliases?: string[];
  valueName?: string;
  description: string;
}

export interface PositionalSpec {
  name: string;
  description: string;
  /** Takes every remaining positional. Only the last positional may be variadic. */
  variadic?: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  positionals: PositionalSpec[];
  options: OptionSpec[];
}

export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

type Value = boolean | string | string[];

export class ParsedArgs {
  constructor(
    readonly command: string,
    /** Positionals in command-line order. */
    readonly positionals: string[],
    private readonly values: Map<string, Value>,
  ) {}

  flag(name: string): boolean {
    return this.values.get(name) === true;
  }

  string(name: string): string | undefined {
    const value = this.values.get(name);
    return typeof value === 'string' ? value : undefined;
  }

  list(name: string): string[] {
    const value = this.values.get(name);
    return Array.isArray(value) ? value : [];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  /** A string option that must be present; the error names the option. */
  requireString(name: string, why = ''): string {
    const value = this.string(name);
    if (value === undefined || value.trim() === '') {
      throw new UsageError(`--${name} is required${why ? ` ${why}` : ''}`, this.command);
    }
    return value;
  }

  /** An integer option; undefined when absent. */
  integer(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) {
      throw new UsageError(`--${name} expects a whole number, got '${value}'`, this.command);
    }
    return Number(value);
  }
}

export function parseArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const fail = (message: string): never => {
    throw new UsageError(message, spec.name);
  };
  // Node's parser knows every spelling (aliases too) as an option of its own; the tokens it
  // returns are mapped back to the declared option, so the messages below stay ours. Not strict:
  // unknown options come back as tokens instead of Node's generic errors.
  const bySpelling = new Map<string, OptionSpec>();
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const option of spec.options) {
    const type = option.kind === 'boolean' ? 'boolean' : 'string';
    for (const spelling of [option.name, ...(option.aliases ?? [])]) {
      bySpelling.set(spelling, option);
      options[spelling] = { type };
    }
    if (option.short) options[option.name] = { type, short: option.short };
  }
  const { tokens } = parseArgv({ args: [...argv], options, strict: false, tokens: true });

  const values = new Map<string, Value>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    const option = bySpelling.get(token.name);
    if (!option) {
      if (token.rawName === '--api-key') {
        fail(
          'the API key is never taken on the command line (it would leak into logs); ' +
            'set MEMTRAIL_API_KEY, or name another variable with --api-key-env',
        );
      }
      return fail(`unknown option ${token.rawName}`);
    }
    if (option.kind === 'boolean') {
      if (token.inlineValue) fail(`--${option.name} takes no value`);
      values.set(option.name, true);
      continue;
    }
    const value =
      token.value ?? fail(`--${option.name} needs a value (${option.valueName ?? 'VALUE'})`);
    if (option.kind === 'string') {
      values.set(option.name, value);
    } else {
      const previous = values.get(option.name);
      values.set(option.name, [...(Array.isArray(previous) ? previous : []), value]);
    }
  }

  const fixed = spec.positionals.filter((p) => !p.variadic).length;
  const variadic = spec.positionals.some((p) => p.variadic);
  if (!variadic && positionals.length > fixed) {
    fail(`unexpected argument '${positionals[fixed]}'`);
  }
  return new ParsedArgs(spec.name, positionals, values);
}

/** Splits list values that may be given space- or comma-separated (`--tags "v1 v2"`). */
export function splitWords(values: string[]): string[] {
  return values.flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '');
}

/** `--def NAME=VALUE` pairs, in order; later definitions of a name win. */
export function parseDefines(values: string[], command: string): Record<string, string> {
  const defines: Record<string, string> = {};
  for (const pair of values) {
    const eq = pair.indexOf('=');
    const name = eq > 0 ? pair.slice(0, eq).trim() : '';
    if (!/^[A-Za-z_.$][\w.$]*$/.test(name)) {
      throw new UsageError(`--def expects NAME=VALUE, got '${pair}'`, command);
    }
    defines[name] = pair.slice(eq + 1).trim();
  }
  return defines;
}

export function formatHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${spec.usage}`, '', spec.summary];
  if (spec.positionals.length > 0) {
    lines.push('', 'Arguments:');
    for (const p of spec.positionals) {
      lines.push(`  ${(p.variadic ? `${p.name}…` : p.name).padEnd(28)} ${p.description}`);
    }
  }
  if (spec.options.length > 0) {
    lines.push('', 'Options:');
    for (const o of spec.options) {
      const names = [
        o.short ? `-${o.short}` : '',
        `--${o.name}`,
        ...(o.aliases ?? []).map((a) => `--${a}`),
      ]
        .filter(Boolean)
        .join(', ');
      const value = o.kind === 'boolean' ? '' : ` ${o.valueName ?? 'VALUE'}`;
      const repeat = o.kind === 'list' ? ' (repeatable)' : '';
      lines.push(`  ${(names + value).padEnd(28)} ${o.description}${repeat}`);
    }
  }
  return lines.join('\n') + '\n';
}
