/**
 * ILINK arithmetic and region algebra. Expressions are exact integers (ILINK documents a 65-bit
 * range, -2^64 to 2^64); a region is a set of address ranges of one memory, and `|`, `&`, `-`
 * are union, intersection and difference of those sets. Ranges are inclusive (`from A to B`
 * contains B); `from A size 0` is an empty range that still has an address.
 */
import type { SourcePosition } from '../linker/errors.js';
import type { IcfExpr, RegionExpr } from './ast.js';
import { applyBinary } from '../expressions/index.js';
import { IcfError } from './errors.js';

export interface Range {
  memory: string;
  start: bigint;
  /** Exclusive end: `start === end` is an empty range at `start`. */
  end: bigint;
}

export interface Memory {
  name: string;
  size: bigint;
}

export interface IcfScope {
  /** The value of a symbol; throws MissingName when it is not (yet) defined. */
  symbol(name: string, position: SourcePosition): bigint;
  isDefined(name: string): boolean;
  /** The ranges of a defined region; throws MissingName when it is not (yet) defined. */
  region(name: string, position: SourcePosition): Range[];
  /** The memory a region literal is in (the only one when the literal names none). */
  memory(name: string | undefined, position: SourcePosition): Memory;
}

/** A reference to a symbol or region that is not defined (yet): the statement waits for it. */
export class MissingName extends Error {
  constructor(
    readonly what: 'symbol' | 'region',
    readonly missing: string,
    readonly position: SourcePosition,
  ) {
    super(`undefined ${what} '${missing}'`);
  }
}

const LIMIT = 1n << 64n;

function checked(value: bigint, position: SourcePosition): bigint {
  if (value >= LIMIT || value <= -LIMIT) {
    throw new IcfError('value outside the 65-bit range of ILINK expressions', position);
  }
  return value;
}

function bool(value: boolean): bigint {
  return value ? 1n : 0n;
}

export function evaluateIcf(expr: IcfExpr, scope: IcfScope): bigint {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'symbol':
      return scope.symbol(expr.name, expr.position);
    case 'unary': {
      const value = evaluateIcf(expr.operand, scope);
      if (expr.op === '-') return -value;
      if (expr.op === '~') return ~value;
      if (expr.op === '!') return bool(value === 0n);
      return value;
    }
    case 'conditional':
      return evaluateIcf(
        evaluateIcf(expr.condition, scope) !== 0n ? expr.whenTrue : expr.whenFalse,
        scope,
      );
    case 'binary': {
      const left = evaluateIcf(expr.left, scope);
      if (expr.op === '&&' && left === 0n) return 0n;
      if (expr.op === '||' && left !== 0n) return 1n;
      const right = evaluateIcf(expr.right, scope);
      const divideByZero = () => {
        throw new IcfError('division by zero', expr.position);
      };
      return checked(applyBinary(expr.op, left, right, divideByZero), expr.position);
    }
    case 'call':
      return call(expr, scope);
  }
}

function call(expr: IcfExpr & { kind: 'call' }, scope: IcfScope): bigint {
  const args = (count: number): bigint[] => {
    if (expr.args.length < count || (count === 2 && expr.args.length !== 2)) {
      throw new IcfError(`${expr.name}() takes ${count} argument(s)`, expr.position);
    }
    return expr.args.map((arg) => evaluateIcf(arg, scope));
  };
  if (expr.symbol !== undefined) return bool(scope.isDefined(expr.symbol));
  if (expr.region) {
    const ranges = evaluateRegion(expr.region, scope).filter((r) => r.end > r.start);
    if (expr.name === 'isempty') return bool(ranges.length === 0);
    if (ranges.length === 0) {
      throw new IcfError(`${expr.name}() of an empty region`, expr.position);
    }
    if (expr.name === 'start') return ranges[0]!.start;
    if (expr.name === 'end') return ranges[ranges.length - 1]!.end - 1n;
    return ranges.reduce((sum, r) => sum + r.end - r.start, 0n);
  }
  switch (expr.name) {
    case 'aligndown':
    case 'alignup': {
      const [value, alignment] = args(2) as [bigint, bigint];
      if (alignment <= 0n)
        throw new IcfError(`${expr.name}() needs a positive alignment`, expr.position);
      const down = value - (((value % alignment) + alignment) % alignment);
      return expr.name === 'aligndown' || down === value ? down : down + alignment;
    }
    case 'max':
    case 'min': {
      const values = args(1);
      return values.reduce((a, b) => ((expr.name === 'max' ? b > a : b < a) ? b : a));
    }
    default:
      throw new IcfError(`unknown function ${expr.name}()`, expr.position);
  }
}

/** Sorted, with overlapping and touching ranges of one memory merged; empty ones kept only alone. */
export function normalize(ranges: Range[]): Range[] {
  const real = ranges
    .filter((r) => r.end > r.start)
    .sort((a, b) =>
      a.memory < b.memory ? -1 : a.memory > b.memory ? 1 : Number(a.start - b.start),
    );
  const merged: Range[] = [];
  for (const range of real) {
    const last = merged[merged.length - 1];
    if (last && last.memory === range.memory && range.start <= last.end) {
      if (range.end > last.end) last.end = range.end;
    } else {
      merged.push({ ...range });
    }
  }
  if (merged.length > 0) return merged;
  const empty = ranges[0];
  return empty ? [{ ...empty, end: empty.start }] : [];
}

function subtract(from: Range[], remove: Range[]): Range[] {
  let result = from;
  for (const cut of remove) {
    result = result.flatMap((r) => {
      if (r.memory !== cut.memory || cut.end <= r.start || cut.start >= r.end) return [r];
      const pieces: Range[] = [];
      if (cut.start > r.start) pieces.push({ ...r, end: cut.start });
      if (cut.end < r.end) pieces.push({ ...r, start: cut.end });
      return pieces;
    });
  }
  return result;
}

function intersect(a: Range[], b: Range[]): Range[] {
  const result: Range[] = [];
  for (const x of a) {
    for (const y of b) {
      if (x.memory !== y.memory) continue;
      const start = x.start > y.start ? x.start : y.start;
      const end = x.end < y.end ? x.end : y.end;
      if (end > start) result.push({ memory: x.memory, start, end });
    }
  }
  return result;
}

export function evaluateRegion(expr: RegionExpr, scope: IcfScope): Range[] {
  switch (expr.kind) {
    case 'empty':
      return [];
    case 'region':
      return scope.region(expr.name, expr.position);
    case 'op': {
      const left = evaluateRegion(expr.left, scope);
      const right = evaluateRegion(expr.right, scope);
      if (expr.op === '|') return normalize([...left, ...right]);
      if (expr.op === '&') return normalize(intersect(left, right));
      return normalize(subtract(left, right));
    }
    case 'literal': {
      const memory = scope.memory(expr.memory, expr.position);
      const start = evaluateIcf(expr.from, scope);
      let size: bigint;
      if (expr.to) {
        const to = evaluateIcf(expr.to, scope);
        if (to < start) {
          throw new IcfError(
            `region literal ends (0x${to.toString(16)}) before it starts (0x${start.toString(16)})`,
            expr.position,
          );
        }
        size = to - start + 1n;
      } else {
        size = evaluateIcf(expr.size!, scope);
        if (size < 0n) throw new IcfError('region literal with a negative size', expr.position);
      }
      const count = expr.repeat ? evaluateIcf(expr.repeat, scope) : 1n;
      const step = expr.displacement ? evaluateIcf(expr.displacement, scope) : size;
      if (count < 1n || count > 4096n) {
        throw new IcfError(`repeat count ${count} is outside 1..4096`, expr.position);
      }
      const ranges: Range[] = [];
      for (let i = 0n; i < count; i++) {
        const from = start + i * step;
        if (from < 0n || from + size > memory.size) {
          throw new IcfError(
            `range 0x${from.toString(16)}–0x${(from + size).toString(16)} is outside memory ${memory.name || '(unnamed)'} (size 0x${memory.size.toString(16)})`,
            expr.position,
          );
        }
        ranges.push({ memory: memory.name, start: from, end: from + size });
      }
      return normalize(ranges);
    }
  }
}
