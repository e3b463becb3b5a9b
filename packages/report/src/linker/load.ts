import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Assignment, MemoryRegionDecl, Statement } from './ast.js';
import {
  formatAttributesLikeLdMap,
  parseAttributes,
  regionKind,
  type RegionAttributes,
  type RegionKind,
} from './attributes.js';
import {
  LinkerScriptError,
  formatPosition,
  type LinkerWarning,
  type SourcePosition,
} from './errors.js';
import { evaluate, isUnknown, type EvalScope, type SymbolEntry, type Value } from './evaluate.js';
import { VMA_MASK } from './numbers.js';
import { ScriptParser, type ParserHost } from './parser.js';

/** One item of the link command line, in its order: `-T script` or `--defsym NAME=EXPR`. */
export type LinkerInput = { script: string } | { defsym: string };

export interface LinkerScriptOptions {
  /** Scripts and defsyms in command-line order; ld runs them as one statement list in this order. */
  inputs: LinkerInput[];
  /** `-L` directories, searched for INCLUDE after the working directory, as ld does. */
  searchPaths?: string[];
  /** The directory the link ran in (relative paths and INCLUDE start here); default process.cwd(). */
  cwd?: string;
  /** Address width of the target; results are truncated to it like ld's (default 32). */
  addressBits?: 32 | 64;
  /** CONSTANT(MAXPAGESIZE) and CONSTANT(COMMONPAGESIZE); arm-none-eabi-ld uses 0x1000 for both. */
  maxPageSize?: number;
  commonPageSize?: number;
}

export interface LinkerRegion {
  name: string;
  origin: number;
  length: number;
  attributes: RegionAttributes;
  /** The attributes as ld's map file prints them (`xr!w`). */
  mapAttributes: string;
  kind: RegionKind;
  position: SourcePosition;
}

export interface LinkerSymbol {
  name: string;
  /** Undefined when the value needs the ELF (location counter, section sizes) or an object symbol. */
  value: number | undefined;
  unknownReason?: string;
  provided: boolean;
  hidden: boolean;
  fromDefsym: boolean;
  position: SourcePosition;
}

/**
 * An output section statement of SECTIONS, in script order: where it goes (`> region AT>
 * loadRegion`, aliases resolved; an undeclared name stays as written) and whether it gives its
 * addresses (`.data ADDR : AT(LMA)`), with their values when the scripts alone give them.
 */
export interface SectionPlacement {
  name: string;
  region?: string;
  loadRegion?: string;
  explicitAddress: boolean;
  explicitLoadAddress: boolean;
  address?: number;
  loadAddress?: number;
  type?: string;
  constraint?: 'ONLY_IF_RO' | 'ONLY_IF_RW';
  position: SourcePosition;
}

/** A C preprocessor line in a script, which ld (and so this reader) took for a comment. */
export interface PreprocessorLine {
  directive: string;
  position: SourcePosition;
}

export interface LinkerScriptModel {
  /** In declaration order; a redeclared region keeps its first place and takes the new values. */
  regions: LinkerRegion[];
  symbols: LinkerSymbol[];
  placements: SectionPlacement[];
  /** REGION_ALIAS name → region name. */
  aliases: Record<string, string>;
  /** Regions used (ORIGIN(), LENGTH(), `> name`) but never declared: ld creates them on demand
   * (ORIGIN 0, LENGTH ~0) with a warning; they are not in `regions`. */
  undeclaredRegions: string[];
  /** `#if`, `#define` … lines: the scripts were meant for the C preprocessor. */
  preprocessorLines: PreprocessorLine[];
  entry?: string;
  /** Every script read, INCLUDEs included, in reading order. */
  files: string[];
  warnings: LinkerWarning[];
}

const MAX_INCLUDE_DEPTH = 16;
const DEFAULT_PAGE_SIZE = 0x1000;

/** Builds `inputs` the usual way: definitions first (`--defsym … -T …`), so script assignments win. */
export function linkerInputs(scripts: string[], defsyms: string[] = []): LinkerInput[] {
  return [...defsyms.map((defsym) => ({ defsym })), ...scripts.map((script) => ({ script }))];
}

/**
 * Reads GNU ld scripts and evaluates them the way ld 2.40 does, as far as the scripts allow:
 *
 * 1. All statements (defsyms and scripts in command-line order, INCLUDEs inlined) run in order;
 *    a later assignment replaces an earlier one, PROVIDE only defines what is still undefined,
 *    DEFINED() sees only what came before. In this pass ORIGIN()/LENGTH() give 0 and ~0, and an
 *    assignment cannot use the value of a PROVIDEd symbol (MEMORY can): ld
 *    evaluates MEMORY only after it (verified: `X = ORIGIN(M)` then `ORIGIN = X` in another
 *    region yields 0 in ld's map).
 * 2. MEMORY regions are evaluated in declaration order with the symbols of pass 1; a region may
 *    use regions declared before it.
 * 3. The statements run again with the real regions: that gives the symbol values reported.
 *
 * The location counter is tracked only between output sections at the top of SECTIONS (from 0, or
 * `. = expr`); inside an output section and after one it is unknown, as are ADDR, SIZEOF, LOADADDR,
 * ALIGNOF, NEXT and SIZEOF_HEADERS. Anything depending on them is reported as needing the ELF (ld
 * itself sometimes uses 0 for such values in MEMORY; we refuse instead of guessing).
 */
export function loadLinkerScripts(options: LinkerScriptOptions): LinkerScriptModel {
  const cwd = options.cwd ?? process.cwd();
  const files: string[] = [];
  const searchPaths = [...(options.searchPaths ?? [])];
  const statements: Statement[] = [];
  const warnings: LinkerWarning[] = [];
  const includeStack: string[] = [];
  const preprocessorLines = new Map<string, PreprocessorLine>();

  const host: ParserHost = {
    directive(directive, position) {
      preprocessorLines.set(`${position.file}:${position.line}`, { directive, position });
    },
    include(name, position, parse) {
      const found = findInclude(name, position.file, cwd, searchPaths);
      if (!found) {
        throw new LinkerScriptError(
          'include-not-found',
          `cannot find INCLUDE file '${name}' (looked in ${[cwd, ...searchPaths, dirname(resolve(cwd, position.file))].join(', ')})`,
          position,
        );
      }
      const key = resolve(cwd, found);
      if (includeStack.includes(key)) {
        throw new LinkerScriptError(
          'include-cycle',
          `INCLUDE cycle: ${[...includeStack, key].join(' -> ')}`,
          position,
        );
      }
      if (includeStack.length >= MAX_INCLUDE_DEPTH) {
        throw new LinkerScriptError(
          'include-too-deep',
          `INCLUDE nested more than ${MAX_INCLUDE_DEPTH} levels`,
          position,
        );
      }
      return withFile(found, key, parse);
    },
    addSearchDir(path) {
      searchPaths.push(path);
    },
  };

  function withFile<T>(display: string, key: string, parse: (file: string, text: string) => T): T {
    files.push(display);
    includeStack.push(key);
    try {
      return parse(display, readFileSync(key, 'utf8'));
    } finally {
      includeStack.pop();
    }
  }

  for (const input of options.inputs) {
    if ('defsym' in input) {
      statements.push(new ScriptParser(input.defsym, '--defsym', host).parseDefsym());
      continue;
    }
    const key = resolve(cwd, input.script);
    if (!existsSync(key) || !statSync(key).isFile()) {
      throw new LinkerScriptError('file-not-found', `linker script not found: ${input.script}`);
    }
    statements.push(
      ...withFile(input.script, key, (file, text) =>
        new ScriptParser(text, file, host).parseScript(),
      ),
    );
  }

  const addressMask = options.addressBits === 64 ? VMA_MASK : 0xffff_ffffn;
  const pageSizes = {
    maxPageSize: BigInt(options.maxPageSize ?? DEFAULT_PAGE_SIZE),
    commonPageSize: BigInt(options.commonPageSize ?? DEFAULT_PAGE_SIZE),
  };
  const { declarations, aliases, redeclared } = collectMemory(statements);
  const undeclared = new Set<string>();

  const resolveRegion = (name: string, position: SourcePosition): string => {
    const target = aliases.get(name) ?? name;
    if (!declarations.has(target) && !undeclared.has(target)) {
      undeclared.add(target);
      warnings.push({
        message: `memory region '${name}' is not declared in any MEMORY block: ld creates it (ORIGIN 0, LENGTH ~0) and warns "memory region \`${name}' not declared"; it is left out of the regions`,
        position,
      });
    }
    return target;
  };
  const phantom = (which: 'origin' | 'length'): bigint => (which === 'origin' ? 0n : VMA_MASK);

  // Pass 1: ld has not evaluated any region yet.
  const unevaluated = (
    name: string,
    which: 'origin' | 'length',
    position: SourcePosition,
  ): bigint => {
    resolveRegion(name, position);
    return phantom(which);
  };
  const firstPass = execute(
    statements,
    { region: unevaluated, addressMask, ...pageSizes, firstPass: true },
    undefined,
  );

  const firstDirective = [...preprocessorLines.values()][0];
  const cppHint = firstDirective
    ? ` (the script looks like it needs the C preprocessor: #${firstDirective.directive} at ${formatPosition(firstDirective.position)}; pass the preprocessed script)`
    : '';

  // Pass 2: regions in declaration order.
  const evaluated = new Map<string, { origin: bigint; length: bigint }>();
  const regions: LinkerRegion[] = [];
  for (const declaration of declarations.values()) {
    const scope: EvalScope = {
      symbols: firstPass.symbols,
      dot: {
        unknown: true,
        code: 'needs-elf',
        message: 'the location counter cannot be used in MEMORY',
        position: declaration.position,
      },
      region(name, which, position) {
        const target = resolveRegion(name, position);
        if (undeclared.has(target)) return phantom(which);
        const done = evaluated.get(target);
        if (!done) {
          warnings.push({
            message: `memory region '${name}' is used before it is declared; ld uses ${which === 'origin' ? '0' : '~0'} for it`,
            position,
          });
          return which === 'origin' ? 0n : VMA_MASK;
        }
        return done[which];
      },
      ...pageSizes,
    };
    const origin =
      regionValue(evaluate(declaration.origin, scope), 'ORIGIN', declaration.name, cppHint) &
      addressMask;
    const length =
      regionValue(evaluate(declaration.length, scope), 'LENGTH', declaration.name, cppHint) &
      addressMask;
    evaluated.set(declaration.name, { origin, length });
    const attributes = parseAttributes(
      declaration.attributeWords,
      declaration.name,
      declaration.position,
    );
    regions.push({
      name: declaration.name,
      origin: toNumber(origin, declaration.position),
      length: toNumber(length, declaration.position),
      attributes,
      mapAttributes: formatAttributesLikeLdMap(attributes),
      kind: regionKind(declaration.name, attributes),
      position: declaration.position,
    });
  }

  for (const [name, positions] of redeclared) {
    const region = regions.find((candidate) => candidate.name === name)!;
    warnings.push({
      message: `memory region '${name}' is declared ${positions.length} times (${positions.map(formatPosition).join(', ')}): as in ld, the last declaration wins (ORIGIN = 0x${region.origin.toString(16)}, LENGTH = 0x${region.length.toString(16)}) and the attributes of all of them apply`,
      position: positions.at(-1)!,
    });
  }

  // Pass 3: final symbol values.
  const final = execute(
    statements,
    {
      region(name, which, position) {
        const target = resolveRegion(name, position);
        return evaluated.get(target)?.[which] ?? phantom(which);
      },
      addressMask,
      ...pageSizes,
    },
    warnings,
  );

  const symbols: LinkerSymbol[] = [...final.symbols].map(([name, entry]) =>
    symbolOut(name, entry, addressMask),
  );
  const placements = final.placements.map((placement) => ({
    ...placement,
    ...(placement.region !== undefined && {
      region: resolveRegion(placement.region, placement.position),
    }),
    ...(placement.loadRegion !== undefined && {
      loadRegion: resolveRegion(placement.loadRegion, placement.position),
    }),
  }));
  const directives = [...preprocessorLines.values()];
  if (directives.length > 0) warnings.unshift(preprocessorWarning(directives, redeclared));
  return {
    regions,
    symbols,
    placements,
    aliases: Object.fromEntries(aliases),
    undeclaredRegions: [...undeclared],
    preprocessorLines: directives,
    ...(final.entry !== undefined && { entry: final.entry }),
    files,
    warnings,
  };
}

function preprocessorWarning(
  lines: PreprocessorLine[],
  redeclared: Map<string, SourcePosition[]>,
): LinkerWarning {
  const shown = lines
    .slice(0, 3)
    .map((line) => `#${line.directive} at line ${line.position.line}`)
    .join(', ');
  const twice = [...redeclared.keys()];
  return {
    message:
      `THIS LINKER SCRIPT LOOKS LIKE IT NEEDS THE C PREPROCESSOR (${shown}${lines.length > 3 ? ', …' : ''}). ` +
      "It was read as GNU ld reads it unpreprocessed: '#' lines are comments, so #define and " +
      '#include do nothing and every #if/#else branch is read' +
      (twice.length > 0
        ? `; ${twice.join(', ')} ${twice.length > 1 ? 'are' : 'is'} declared more than once and the last declaration wins`
        : '') +
      '. Pass the preprocessed script the build used (e.g. the output of `cpp -P`) for the real regions.',
    position: lines[0]!.position,
  };
}

function findInclude(
  name: string,
  includingFile: string,
  cwd: string,
  searchPaths: string[],
): string | undefined {
  if (isAbsolute(name)) return existsSync(name) ? name : undefined;
  // ld 2.40 looks in the working directory, then the -L paths; it does not look next to the
  // including script. We try that last, because the report often runs elsewhere than the link.
  const candidates = [
    resolve(cwd, name),
    ...searchPaths.map((dir) => resolve(cwd, dir, name)),
    resolve(cwd, dirname(includingFile), name),
  ];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/**
 * MEMORY declarations by name in first-declaration order. A redeclared region takes the last
 * ORIGIN and LENGTH, and the attributes of every declaration (ld ORs the flags).
 */
function collectMemory(statements: Statement[]) {
  const declarations = new Map<string, MemoryRegionDecl>();
  const redeclared = new Map<string, SourcePosition[]>();
  const aliases = new Map<string, string>();
  for (const statement of statements) {
    if (statement.kind === 'memory') {
      for (const region of statement.regions) {
        const earlier = declarations.get(region.name);
        if (earlier) {
          redeclared.set(region.name, [
            ...(redeclared.get(region.name) ?? [earlier.position]),
            region.position,
          ]);
        }
        declarations.set(region.name, {
          ...region,
          attributeWords: [...(earlier?.attributeWords ?? []), ...region.attributeWords],
          position: earlier?.position ?? region.position,
        });
      }
    } else if (statement.kind === 'regionAlias') {
      if (aliases.has(statement.alias) || declarations.has(statement.alias)) {
        throw new LinkerScriptError(
          'syntax',
          `REGION_ALIAS: '${statement.alias}' is already a region or an alias`,
          statement.position,
        );
      }
      // ld resolves the alias where it stands: the region must be declared above it.
      const target = aliases.get(statement.region) ?? statement.region;
      if (!declarations.has(target)) {
        throw new LinkerScriptError(
          'undefined-region',
          `REGION_ALIAS: memory region '${statement.region}' for alias '${statement.alias}' does not exist (ld stops here too)`,
          statement.position,
        );
      }
      aliases.set(statement.alias, target);
    }
  }
  return { declarations, aliases, redeclared };
}

function regionValue(value: Value, what: string, region: string, hint: string): bigint {
  if (!isUnknown(value)) return value;
  throw new LinkerScriptError(
    value.code,
    `invalid ${what} of memory region ${region}: ${value.message}${hint}`,
    value.position,
  );
}

function toNumber(value: bigint, position: SourcePosition): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new LinkerScriptError(
      'number-too-large',
      `value 0x${value.toString(16)} is beyond what a JSON number holds exactly`,
      position,
    );
  }
  return Number(value);
}

function symbolOut(name: string, entry: SymbolEntry, mask: bigint): LinkerSymbol {
  const known = !isUnknown(entry.value);
  return {
    name,
    value: known ? toNumber((entry.value as bigint) & mask, entry.position) : undefined,
    ...(!known && { unknownReason: (entry.value as { message: string }).message }),
    provided: entry.provided,
    hidden: entry.hidden,
    fromDefsym: entry.fromDefsym,
    position: entry.position,
  };
}

interface ExecutionScope {
  region: EvalScope['region'];
  firstPass?: boolean;
  addressMask: bigint;
  maxPageSize: bigint;
  commonPageSize: bigint;
}

interface Execution {
  symbols: Map<string, SymbolEntry>;
  placements: SectionPlacement[];
  entry: string | undefined;
}

/** Runs the statement list once (see loadLinkerScripts); warnings are collected on the final pass only. */
function execute(
  statements: Statement[],
  base: ExecutionScope,
  warnings: LinkerWarning[] | undefined,
): Execution {
  const symbols = new Map<string, SymbolEntry>();
  const placements: SectionPlacement[] = [];
  let entry: string | undefined;
  const provided = new Set<string>();
  const scopeWith = (dot: Value): EvalScope => ({
    ...(base.firstPass && { withheld: provided }),
    region: base.region,
    maxPageSize: base.maxPageSize,
    commonPageSize: base.commonPageSize,
    symbols,
    dot,
  });

  const assign = (statement: Assignment, dot: Value): Value => {
    if (statement.provide && symbols.has(statement.target)) return dot;
    const scope = scopeWith(dot);
    let value = evaluate(statement.value, scope);
    if (statement.op !== '=') {
      const current =
        statement.target === '.'
          ? dot
          : evaluate(
              { kind: 'symbol', name: statement.target, position: statement.position },
              scope,
            );
      value = applyBinary(statement.op.slice(0, -1), current, value, statement.position);
    }
    if (statement.target === '.') return value;
    if (
      warnings &&
      isUnknown(value) &&
      value.code === 'undefined-symbol' &&
      !statement.inOutputSection
    ) {
      warnings.push({
        message: `${statement.target} is not set: ${value.message}`,
        position: value.position,
      });
    }
    if (statement.provide) provided.add(statement.target);
    else provided.delete(statement.target);
    symbols.set(statement.target, {
      value,
      position: statement.position,
      provided: statement.provide,
      hidden: statement.hidden,
      fromDefsym: statement.fromDefsym,
    });
    return dot;
  };

  const runSection = (
    body: Statement[],
    dot: Value,
    sectionName: string,
    position: SourcePosition,
  ): void => {
    const inside: Value = isUnknown(dot)
      ? dot
      : {
          unknown: true,
          code: 'needs-elf',
          message: `the location counter inside output section ${sectionName}`,
          position,
        };
    for (const statement of body) {
      if (statement.kind === 'assign') assign(statement, inside);
      else if (statement.kind === 'assert') checkAssert(statement, scopeWith(inside), warnings);
    }
  };

  for (const statement of statements) {
    switch (statement.kind) {
      case 'assign':
        assign(statement, {
          unknown: true,
          code: 'needs-elf',
          message: 'the location counter outside SECTIONS',
          position: statement.position,
        });
        break;
      case 'assert':
        checkAssert(
          statement,
          scopeWith({
            unknown: true,
            code: 'needs-elf',
            message: 'the location counter',
            position: statement.position,
          }),
          warnings,
        );
        break;
      case 'command':
        if (statement.name === 'ENTRY') entry = statement.argument;
        break;
      case 'sections': {
        let dot: Value = 0n;
        for (const item of statement.body) {
          if (item.kind === 'assign') dot = assign(item, dot);
          else if (item.kind === 'assert') checkAssert(item, scopeWith(dot), warnings);
          else if (item.kind === 'command' && item.name === 'ENTRY') entry = item.argument;
          else if (item.kind === 'outputSection') {
            const address = item.address ? evaluate(item.address, scopeWith(dot)) : undefined;
            const loadAddress = item.loadAddress
              ? evaluate(item.loadAddress, scopeWith(dot))
              : undefined;
            if (item.name !== '/DISCARD/') {
              placements.push({
                name: item.name,
                ...(item.region !== undefined && { region: item.region }),
                ...(item.loadRegion !== undefined && { loadRegion: item.loadRegion }),
                explicitAddress: item.address !== undefined,
                explicitLoadAddress: item.loadAddress !== undefined,
                ...(item.constraint !== undefined && { constraint: item.constraint }),
                ...(address !== undefined &&
                  !isUnknown(address) && { address: Number(address & base.addressMask) }),
                ...(loadAddress !== undefined &&
                  !isUnknown(loadAddress) && {
                    loadAddress: Number(loadAddress & base.addressMask),
                  }),
                ...(item.type !== undefined && { type: item.type }),
                position: item.position,
              });
            }
            runSection(item.body, address ?? dot, item.name, item.position);
            dot = {
              unknown: true,
              code: 'needs-elf',
              message: `the location counter after output section ${item.name}`,
              position: item.position,
            };
          }
        }
        break;
      }
      default:
        break;
    }
  }
  return { symbols, placements, entry };
}

/** `X op= v` is `X = X op v`. */
function applyBinary(op: string, left: Value, right: Value, position: SourcePosition): Value {
  if (isUnknown(left)) return left;
  if (isUnknown(right)) return right;
  return evaluate(
    {
      kind: 'binary',
      op,
      left: { kind: 'number', value: left, position },
      right: { kind: 'number', value: right, position },
      position,
    },
    { symbols: new Map(), dot: 0n, region: () => 0n, maxPageSize: 0n, commonPageSize: 0n },
  );
}

function checkAssert(
  statement: Statement & { kind: 'assert' },
  scope: EvalScope,
  warnings: LinkerWarning[] | undefined,
): void {
  if (!warnings) return;
  const value = evaluate(statement.condition, scope);
  if (!isUnknown(value) && value === 0n) {
    warnings.push({
      message: `ASSERT failed (ld would stop the link): ${statement.message}`,
      position: statement.position,
    });
  }
}
