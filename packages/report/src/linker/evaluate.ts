import type { Expr } from './ast.js';
import { LinkerScriptError, type LinkerScriptErrorCode, type SourcePosition } from './errors.js';
import { VMA_MASK } from './numbers.js';

/** A value the scripts alone cannot give (section sizes, the location counter, object symbols). */
export interface Unknown {
  unknown: true;
  code: LinkerScriptErrorCode;
  message: string;
  position: SourcePosition;
}
export type Value = bigint | Unknown;

export function isUnknown(value: Value): value is Unknown {
  return typeof value !== 'bigint';
}

export interface SymbolEntry {
  value: Value;
  position: SourcePosition;
  provided: boolean;
  hidden: boolean;
  fromDefsym: boolean;
}

export interface EvalScope {
  symbols: Map<string, SymbolEntry>;
  /** The location counter, or why it is unknown here. */
  dot: Value;
  region(name: string, which: 'origin' | 'length', position: SourcePosition): bigint;
  maxPageSize: bigint;
  commonPageSize: bigint;
  /** Symbols that are defined but whose value this evaluation may not use (see loadLinkerScripts). */
  withheld?: ReadonlySet<string>;
}

const SIGN_BIT = 1n << 63n;

function signed(value: bigint): bigint {
  return value & SIGN_BIT ? value - (1n << 64n) : value;
}

function wrap(value: bigint): bigint {
  return value & VMA_MASK;
}

function needsElf(what: string, position: SourcePosition): Unknown {
  return {
    unknown: true,
    code: 'needs-elf',
    message: `${what} needs the linked ELF; the scripts alone do not give it`,
    position,
  };
}

/**
 * Evaluates with ld's arithmetic (checked against arm-none-eabi-ld 2.40): 64-bit wrap-around,
 * signed `/` and `%`, unsigned comparisons, MAX and MIN, logical `>>`, shift counts modulo 64.
 */
export function evaluate(expr: Expr, scope: EvalScope): Value {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'dot':
      return scope.dot;
    case 'symbol': {
      const entry = scope.symbols.get(expr.name);
      if (entry && scope.withheld?.has(expr.name)) {
        return {
          unknown: true,
          code: 'undefined-symbol',
          message: `'${expr.name}' is only PROVIDEd, and ld does not pass a PROVIDEd value on to other assignments before it evaluates MEMORY (ld then reports an invalid origin or length)`,
          position: expr.position,
        };
      }
      if (entry) return entry.value;
      return {
        unknown: true,
        code: 'undefined-symbol',
        message: `undefined symbol '${expr.name}' referenced in expression`,
        position: expr.position,
      };
    }
    case 'unary': {
      const operand = evaluate(expr.operand, scope);
      if (isUnknown(operand)) return operand;
      if (expr.op === '-') return wrap(-operand);
      if (expr.op === '!') return operand === 0n ? 1n : 0n;
      if (expr.op === '~') return wrap(~operand);
      return operand;
    }
    case 'conditional': {
      // ld folds both branches, so a division by zero in the branch not taken is still an error.
      const condition = evaluate(expr.condition, scope);
      const whenTrue = evaluate(expr.whenTrue, scope);
      const whenFalse = evaluate(expr.whenFalse, scope);
      if (isUnknown(condition)) return condition;
      return condition !== 0n ? whenTrue : whenFalse;
    }
    case 'binary':
      return binary(expr.op, expr.left, expr.right, expr.position, scope);
    case 'nameCall':
      return nameCall(expr.name, expr.argument, expr.position, scope);
    case 'segmentStart':
      return evaluate(expr.fallback, scope);
    case 'call':
      return call(expr.name, expr.args, expr.position, scope);
  }
}

function binary(
  op: string,
  leftExpr: Expr,
  rightExpr: Expr,
  position: SourcePosition,
  scope: EvalScope,
): Value {
  const left = evaluate(leftExpr, scope);
  const right = evaluate(rightExpr, scope);
  if (op === '&&' && !isUnknown(left) && left === 0n) return 0n;
  if (op === '||' && !isUnknown(left) && left !== 0n) return 1n;
  if (isUnknown(left)) return left;
  if (isUnknown(right)) return right;
  switch (op) {
    case '+':
      return wrap(left + right);
    case '-':
      return wrap(left - right);
    case '*':
      return wrap(left * right);
    case '/':
    case '%':
      if (right === 0n) throw new LinkerScriptError('divide-by-zero', `${op} by zero`, position);
      return wrap(op === '/' ? signed(left) / signed(right) : signed(left) % signed(right));
    case '<<':
      return wrap(left << (right & 63n));
    case '>>':
      return left >> (right & 63n);
    case '&':
      return left & right;
    case '|':
      return left | right;
    case '&&':
    case '||':
      return right !== 0n ? 1n : 0n;
    case '==':
      return left === right ? 1n : 0n;
    case '!=':
      return left !== right ? 1n : 0n;
    case '<':
      return left < right ? 1n : 0n;
    case '>':
      return left > right ? 1n : 0n;
    case '<=':
      return left <= right ? 1n : 0n;
    case '>=':
      return left >= right ? 1n : 0n;
  }
  throw new LinkerScriptError('syntax', `unknown operator '${op}'`, position);
}

function nameCall(
  name: string,
  argument: string,
  position: SourcePosition,
  scope: EvalScope,
): Value {
  switch (name) {
    case 'ORIGIN':
      return scope.region(argument, 'origin', position);
    case 'LENGTH':
      return scope.region(argument, 'length', position);
    case 'DEFINED':
      return scope.symbols.has(argument) ? 1n : 0n;
    case 'CONSTANT':
      if (argument === 'MAXPAGESIZE') return scope.maxPageSize;
      if (argument === 'COMMONPAGESIZE') return scope.commonPageSize;
      throw new LinkerScriptError(
        'syntax',
        `unknown constant '${argument}' (CONSTANT takes MAXPAGESIZE or COMMONPAGESIZE)`,
        position,
      );
    default:
      return needsElf(`${name}(${argument})`, position);
  }
}

function call(name: string, argExprs: Expr[], position: SourcePosition, scope: EvalScope): Value {
  const args = argExprs.map((arg) => evaluate(arg, scope));
  const unknown = args.find(isUnknown);
  if (unknown) return unknown;
  const values = args as bigint[];
  const first = values[0]!;
  switch (name) {
    case 'ABSOLUTE':
      return first;
    case 'ALIGN':
    case 'BLOCK': {
      if (values.length === 1 && isUnknown(scope.dot)) return scope.dot;
      const base = values.length === 2 ? first : (scope.dot as bigint);
      const alignment = values.length === 2 ? values[1]! : first;
      if (alignment === 0n) return base;
      return wrap(((base + alignment - 1n) / alignment) * alignment);
    }
    case 'MAX':
      return first >= values[1]! ? first : values[1]!;
    case 'MIN':
      return first <= values[1]! ? first : values[1]!;
    case 'LOG2CEIL': {
      let result = 0n;
      while (first > 1n << result) result++;
      return result;
    }
    default:
      return needsElf(`${name}()`, position);
  }
}
