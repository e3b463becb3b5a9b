/**
 * A small declarative argument parser. Each command declares its positionals and options; the
 * parser returns typed accessors or throws a UsageError (exit code 2) naming the command, so every
 * mistake on the command line is reported the same way.
 */

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
  const byName = new Map<string, OptionSpec>();
  for (const option of spec.options) {
    byName.set(`--${option.name}`, option);
    for (const alias of option.aliases ?? []) byName.set(`--${alias}`, option);
    if (option.short) byName.set(`-${option.short}`, option);
  }
  const values = new Map<string, Value>();
  const positionals: string[] = [];
  const fail = (message: string): never => {
    throw new UsageError(message, spec.name);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    let key = arg;
    let inline: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      key = arg.slice(0, eq);
      inline = arg.slice(eq + 1);
    } else if (!arg.startsWith('--') && arg.length > 2) {
      // `-Lpath`: a short option glued to its value.
      key = arg.slice(0, 2);
      inline = arg.slice(2);
    }
    const option = byName.get(key);
    if (!option) {
      if (key === '--api-key') {
        fail(
          'the API key is never taken on the command line (it would leak into logs); ' +
            'set MEMTRAIL_API_KEY, or name another variable with --api-key-env',
        );
      }
      fail(`unknown option ${key}`);
    }
    const opt = option as OptionSpec;
    if (opt.kind === 'boolean') {
      if (inline !== undefined) fail(`--${opt.name} takes no value`);
      values.set(opt.name, true);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) fail(`--${opt.name} needs a value (${opt.valueName ?? 'VALUE'})`);
      value = argv[++i]!;
    }
    if (opt.kind === 'string') {
      values.set(opt.name, value);
    } else {
      const previous = values.get(opt.name);
      values.set(opt.name, [...(Array.isArray(previous) ? previous : []), value]);
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
