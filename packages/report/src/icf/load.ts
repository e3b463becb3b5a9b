/**
 * Reads IAR linker configuration files the way ILINK evaluates them:
 * - `--config_def` definitions (our `--def`) come first; a file that defines the same symbol again
 *   would be refused by ILINK, so the command line wins and we warn;
 * - directives run in file order, `include` in place; a directive whose symbols or regions are not
 *   defined yet waits until they are;
 * - conditions that rely on `isdefinedsymbol` (directly or through symbols defined under such a
 *   condition) are evaluated last, all of them in the same context, as ILINK documents; then the
 *   rest runs again with what their branches defined;
 * - `error "…"` in a branch that is taken stops with its message, as ILINK does.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SourcePosition } from '../linker/errors.js';
import type { IcfExpr, PlacementKind, RegionExpr, SelectorItem, Statement } from './ast.js';
import { IcfError, type IcfWarning } from './errors.js';
import {
  evaluateIcf,
  evaluateRegion,
  MissingName,
  type IcfScope,
  type Memory,
  type Range,
} from './evaluate.js';
import { tokenizeIcf } from './lexer.js';
import { parseIcf } from './parser.js';

export interface IcfOptions {
  /** `--def NAME=VALUE` (ILINK's --config_def): constants defined before the files. */
  definitions?: Array<[name: string, value: string]>;
  /** `-L` directories (ILINK's --config_search) searched for `include` files. */
  searchPaths?: string[];
  cwd?: string;
}

export interface IcfRegionDefinition {
  name: string;
  ranges: Range[];
  declared?: 'rom' | 'ram';
  position: SourcePosition;
}

export interface IcfPlacement {
  /** The label ILINK gives the directive's output sections: `"name":` if given, else A<n>/P<n>. */
  label: string;
  explicitLabel: boolean;
  placement: PlacementKind;
  /** The ranges the directive places into (for `place at address`, the address). */
  ranges: Range[];
  /** Defined regions the directive names. */
  regions: string[];
  declared?: 'rom' | 'ram';
  items: SelectorItem[];
  position: SourcePosition;
}

export interface IcfBlock {
  name: string;
  sized: boolean;
  items: SelectorItem[];
  position: SourcePosition;
}

export interface IcfModel {
  regions: IcfRegionDefinition[];
  placements: IcfPlacement[];
  blocks: Map<string, IcfBlock>;
  symbols: Map<string, { value: bigint; exported: boolean; position: SourcePosition }>;
  files: string[];
  warnings: IcfWarning[];
}

interface Entry {
  statement: Statement;
  file: string;
  /** Document order: indexes through includes and if branches. */
  order: number[];
  /** Inside a branch chosen by a condition that relies on isdefinedsymbol. */
  late: boolean;
  includeChain: string[];
}

const MAX_INCLUDE_DEPTH = 16;

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

/** Symbols an expression reads (isdefinedsymbol's argument apart) and whether it probes any. */
function references(expr: IcfExpr, into: { symbols: Set<string>; probes: boolean }): void {
  switch (expr.kind) {
    case 'symbol':
      into.symbols.add(expr.name);
      return;
    case 'unary':
      references(expr.operand, into);
      return;
    case 'binary':
      references(expr.left, into);
      references(expr.right, into);
      return;
    case 'conditional':
      references(expr.condition, into);
      references(expr.whenTrue, into);
      references(expr.whenFalse, into);
      return;
    case 'call':
      if (expr.symbol !== undefined) into.probes = true;
      for (const arg of expr.args) references(arg, into);
      if (expr.region) regionReferences(expr.region, into);
      return;
    default:
      return;
  }
}

function regionReferences(expr: RegionExpr, into: { symbols: Set<string>; probes: boolean }): void {
  if (expr.kind === 'op') {
    regionReferences(expr.left, into);
    regionReferences(expr.right, into);
  } else if (expr.kind === 'literal') {
    for (const part of [expr.from, expr.to, expr.size, expr.repeat, expr.displacement]) {
      if (part) references(part, into);
    }
  }
}

/** Region names a region expression uses. */
function regionNames(expr: RegionExpr): string[] {
  if (expr.kind === 'region') return [expr.name];
  if (expr.kind === 'op') return [...regionNames(expr.left), ...regionNames(expr.right)];
  return [];
}

export function loadIcfFiles(paths: string[], options: IcfOptions = {}): IcfModel {
  const cwd = options.cwd ?? process.cwd();
  const warnings: IcfWarning[] = [];
  const files: string[] = [];
  const symbols: IcfModel['symbols'] = new Map();
  const fromCommandLine = new Set<string>();
  /** Symbols whose value or existence depends on isdefinedsymbol. */
  const late = new Set<string>();
  const memories = new Map<string, Memory>();
  const regions = new Map<string, IcfRegionDefinition>();
  const regionOrder = new Map<string, number[]>();
  const placed: Array<{ entry: Entry; statement: Statement & { kind: 'place' } }> = [];
  const blocks = new Map<string, IcfBlock>();
  const checks: Array<Statement & { kind: 'check' }> = [];

  const scope: IcfScope = {
    symbol(name, position) {
      const entry = symbols.get(name);
      if (!entry) throw new MissingName('symbol', name, position);
      return entry.value;
    },
    isDefined: (name) => symbols.has(name),
    region(name, position) {
      const region = regions.get(name);
      if (!region) throw new MissingName('region', name, position);
      return region.ranges;
    },
    memory(name, position) {
      if (name !== undefined) {
        const memory = memories.get(name);
        if (!memory)
          throw new IcfError(
            `memory '${name}' is not defined (define memory ${name} with size = …)`,
            position,
          );
        return memory;
      }
      if (memories.size === 1) return [...memories.values()][0]!;
      if (memories.size === 0) {
        throw new IcfError(
          'a region literal needs a memory: there is no define memory before it',
          position,
        );
      }
      throw new IcfError(
        `several memories are defined: name one (${[...memories.keys()].join(', ')})`,
        position,
      );
    },
  };

  const commandLine: SourcePosition = { file: '<command line>', line: 1, column: 1 };
  for (const [name, text] of options.definitions ?? []) {
    const statements = parseIcf(tokenizeIcf(`define symbol ${name} = ${text};`, '--def'));
    const statement = statements[0] as Statement & { kind: 'symbol' };
    let value: bigint;
    try {
      value = evaluateIcf(statement.value, scope);
    } catch (error) {
      throw new IcfError(`--def ${name}=${text}: not a constant (${(error as Error).message})`);
    }
    symbols.set(name, { value, exported: false, position: commandLine });
    fromCommandLine.add(name);
  }

  const parseFile = (path: string, display: string): Statement[] => {
    files.push(display);
    return parseIcf(tokenizeIcf(readFileSync(path, 'utf8'), display));
  };

  const queue: Entry[] = [];
  paths.forEach((path, fileIndex) => {
    const full = resolve(cwd, path);
    if (!existsSync(full) || !statSync(full).isFile()) {
      throw new IcfError(`linker configuration file not found: ${path}`);
    }
    parseFile(full, path).forEach((statement, i) =>
      queue.push({
        statement,
        file: path,
        order: [fileIndex, i],
        late: false,
        includeChain: [full],
      }),
    );
  });

  /** The expression relies on isdefinedsymbol, directly or through symbols that do. */
  const relies = (expr: IcfExpr): boolean => {
    const refs = { symbols: new Set<string>(), probes: false };
    references(expr, refs);
    return refs.probes || [...refs.symbols].some((name) => late.has(name));
  };
  /** Only `if` conditions wait: symbols are evaluated when they are defined (ILINK). */
  const deferred = (entry: Entry): boolean =>
    entry.statement.kind === 'if' && relies(entry.statement.condition);

  const children = (
    entry: Entry,
    statements: Statement[],
    branch: number,
    isLate: boolean,
  ): Entry[] =>
    statements.map((statement, i) => ({
      statement,
      file: entry.file,
      order: [...entry.order, branch, i],
      late: entry.late || isLate,
      includeChain: entry.includeChain,
    }));

  const include = (entry: Entry, statement: Statement & { kind: 'include' }): Entry[] => {
    const candidates = isAbsolute(statement.file)
      ? [statement.file]
      : [dirname(resolve(cwd, entry.file)), ...(options.searchPaths ?? []), cwd].map((dir) =>
          resolve(cwd, dir, statement.file),
        );
    const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
    if (!found) {
      throw new IcfError(
        `cannot find include file '${statement.file}' (looked in ${candidates.map((c) => dirname(c)).join(', ')})`,
        statement.position,
      );
    }
    if (entry.includeChain.includes(found)) {
      throw new IcfError(
        `include cycle: ${[...entry.includeChain, found].join(' -> ')}`,
        statement.position,
      );
    }
    if (entry.includeChain.length > MAX_INCLUDE_DEPTH) {
      throw new IcfError(
        `include nested more than ${MAX_INCLUDE_DEPTH} levels`,
        statement.position,
      );
    }
    return parseFile(found, found).map((child, i) => ({
      statement: child,
      file: found,
      order: [...entry.order, 0, i],
      late: entry.late,
      includeChain: [...entry.includeChain, found],
    }));
  };

  const defineSymbol = (
    entry: Entry,
    statement: Statement & { kind: 'symbol' },
    value: bigint,
  ): void => {
    const existing = symbols.get(statement.name);
    if (existing && fromCommandLine.has(statement.name)) {
      warnings.push({
        message: `--def ${statement.name} overrides its definition here (ILINK would refuse the link: the symbol is defined twice)`,
        position: statement.position,
      });
      return;
    }
    if (existing) {
      throw new IcfError(
        `symbol '${statement.name}' is already defined (at ${existing.position.file}:${existing.position.line})`,
        statement.position,
      );
    }
    symbols.set(statement.name, {
      value,
      exported: statement.exported,
      position: statement.position,
    });
    if (entry.late || relies(statement.value)) late.add(statement.name);
  };

  /**
   * Runs one directive; undefined when it must wait for symbols or regions defined later.
   * `decided`: the value of a deferred condition, evaluated with the others of its round.
   */
  const run = (entry: Entry, decided?: bigint): Entry[] | undefined => {
    const { statement } = entry;
    try {
      switch (statement.kind) {
        case 'symbol':
          defineSymbol(entry, statement, evaluateIcf(statement.value, scope));
          return [];
        case 'if': {
          const value = decided ?? evaluateIcf(statement.condition, scope);
          const isLate = decided !== undefined;
          return value !== 0n
            ? children(entry, statement.then, 0, isLate)
            : children(entry, statement.else, 1, isLate);
        }
        case 'memory': {
          if (memories.has(statement.name)) {
            throw new IcfError(
              `memory '${statement.name || '(unnamed)'}' is defined twice`,
              statement.position,
            );
          }
          memories.set(statement.name, {
            name: statement.name,
            size: evaluateIcf(statement.size, scope),
          });
          return [];
        }
        case 'region': {
          const existing = regions.get(statement.name);
          if (existing) {
            throw new IcfError(
              `region '${statement.name}' is already defined (at ${existing.position.file}:${existing.position.line})`,
              statement.position,
            );
          }
          regions.set(statement.name, {
            name: statement.name,
            ranges: evaluateRegion(statement.value, scope),
            ...(statement.declared && { declared: statement.declared }),
            position: statement.position,
          });
          regionOrder.set(statement.name, entry.order);
          return [];
        }
        case 'include':
          return include(entry, statement);
        case 'error':
          throw new IcfError(
            `error "${statement.message}" (ILINK stops the link here)`,
            statement.position,
          );
        case 'place':
          placed.push({ entry, statement });
          return [];
        case 'block': {
          const existing = blocks.get(statement.name);
          if (existing && !statement.overlay) {
            throw new IcfError(`block '${statement.name}' is defined twice`, statement.position);
          }
          blocks.set(statement.name, {
            name: statement.name,
            sized: statement.sized || (existing?.sized ?? false),
            items: [...(existing?.items ?? []), ...statement.items],
            position: existing?.position ?? statement.position,
          });
          return [];
        }
        case 'initialize':
        case 'noInitialize':
          // ILINK copies initial values into the read-only placement itself: no load images.
          return [];
        case 'check':
          checks.push(statement);
          return [];
        case 'other':
          return [];
      }
    } catch (error) {
      if (error instanceof MissingName) return undefined;
      throw error;
    }
  };

  for (;;) {
    let progress = true;
    while (progress) {
      progress = false;
      for (let i = 0; i < queue.length; i++) {
        const entry = queue[i]!;
        if (deferred(entry)) continue;
        const inserted = run(entry);
        if (!inserted) continue;
        queue.splice(i, 1, ...inserted);
        i += inserted.length - 1;
        progress = true;
      }
    }
    // Conditions relying on isdefinedsymbol: all evaluated in the same context, then applied.
    const decisions: Array<[Entry, bigint]> = [];
    for (const entry of queue) {
      if (!deferred(entry)) continue;
      const { condition } = entry.statement as Statement & { kind: 'if' };
      try {
        decisions.push([entry, evaluateIcf(condition, scope)]);
      } catch (error) {
        if (!(error instanceof MissingName)) throw error;
      }
    }
    if (decisions.length === 0) break;
    for (const [entry, value] of decisions) {
      const index = queue.indexOf(entry);
      queue.splice(index, 1, ...run(entry, value)!);
    }
  }

  const waiting = queue[0];
  if (waiting) throw unresolved(waiting, scope);

  const placements = placementsOf(placed, scope);
  for (const check of checks) {
    if (evaluateIcf(check.condition, scope) === 0n) {
      warnings.push({
        message: 'check that … failed (ILINK would stop the link)',
        position: check.position,
      });
    }
  }
  return {
    // In file order, although a region waiting for a late symbol is evaluated later.
    regions: [...regions.values()].sort((a, b) =>
      compareOrder(regionOrder.get(a.name)!, regionOrder.get(b.name)!),
    ),
    placements,
    blocks,
    symbols,
    files,
    warnings,
  };
}

/** The error for a directive that never became ready: the name it still misses. */
function unresolved(entry: Entry, scope: IcfScope): IcfError {
  const { statement } = entry;
  try {
    if (statement.kind === 'symbol') evaluateIcf(statement.value, scope);
    else if (statement.kind === 'if') evaluateIcf(statement.condition, scope);
    else if (statement.kind === 'region') evaluateRegion(statement.value, scope);
    else if (statement.kind === 'memory') evaluateIcf(statement.size, scope);
  } catch (error) {
    if (error instanceof MissingName) {
      return new IcfError(
        error.what === 'symbol'
          ? `undefined symbol '${error.missing}' (define it in the file, or give it with --def ${error.missing}=VALUE as ILINK's --config_def)`
          : `undefined region '${error.missing}'`,
        error.position,
      );
    }
    return error as IcfError;
  }
  return new IcfError('directive could not be evaluated', statement.position);
}

function placementsOf(
  placed: Array<{ entry: Entry; statement: Statement & { kind: 'place' } }>,
  scope: IcfScope,
): IcfPlacement[] {
  const ordered = [...placed].sort((a, b) => compareOrder(a.entry.order, b.entry.order));
  return ordered.map(({ statement }, index) => {
    let ranges: Range[];
    try {
      if (statement.address) {
        const memory = scope.memory(statement.memory, statement.position);
        const address = evaluateIcf(statement.address, scope);
        ranges = [{ memory: memory.name, start: address, end: address }];
      } else {
        ranges = evaluateRegion(statement.region!, scope);
      }
    } catch (error) {
      if (error instanceof MissingName) {
        throw new IcfError(
          `undefined ${error.what} '${error.missing}' in a place directive`,
          error.position,
        );
      }
      throw error;
    }
    const auto = `${statement.placement === 'in' ? 'P' : 'A'}${index}`;
    return {
      label: statement.label ?? auto,
      explicitLabel: statement.label !== undefined,
      placement: statement.placement,
      ranges,
      regions: statement.region ? regionNames(statement.region) : [],
      ...(statement.declared && { declared: statement.declared }),
      items: statement.items,
      position: statement.position,
    };
  });
}
