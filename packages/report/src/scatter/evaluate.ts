/**
 * Scatter-file arithmetic. Values are exact integers (armlink's `~(n-1)` masks work as two's
 * complement); a unary `+` where a base address is expected means `+offset`, relative to the end
 * of the previous region (also inside `AlignExpr(+0, 8)` and conditionals). Values that depend on
 * the linked image (ImageLimit of a region holding sections, `defined(symbol)`) are Unknown without
 * one.
 */
import type { SourcePosition } from '../linker/errors.js';
import type { ScatterExpr } from './ast.js';
import { applyBinary } from '../expressions/index.js';
import { ScatterError } from './errors.js';

export interface Unknown {
  unknown: true;
  reason: string;
}
export type Value = bigint | Unknown;

export function isUnknown(value: Value | undefined): value is Unknown {
  return typeof value === 'object';
}

export type RegionFunction =
  'imagebase' | 'imagelimit' | 'imagelength' | 'loadbase' | 'loadlimit' | 'loadlength';

export interface EvalContext {
  /** Where `+offset` counts from, when the expression is a region's base address. */
  cursor?: Value;
  region(fn: RegionFunction, name: string, position: SourcePosition): Value;
  /** `defined(symbol)`: 1 or 0 from the image's symbol table. */
  symbolDefined(name: string): Value;
  /** SizeOfHeaders(): the ELF header and program headers. */
  headerSize: Value;
}

/** armlink's default page size (GetPageSize()). */
const PAGE_SIZE = 0x8000n;

const REGION_FUNCTIONS = new Set<string>([
  'imagebase',
  'imagelimit',
  'imagelength',
  'loadbase',
  'loadlimit',
  'loadlength',
]);

export function alignUp(value: bigint, alignment: bigint): bigint {
  if (alignment <= 0n) return value;
  return ((value + alignment - 1n) / alignment) * alignment;
}

function bool(value: boolean): bigint {
  return value ? 1n : 0n;
}

export function evaluateScatter(expr: ScatterExpr, context: EvalContext): Value {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'name':
      throw new ScatterError(
        `unknown name '${expr.name}' in an expression (a macro that is not #defined? give it with --def ${expr.name}=VALUE)`,
        expr.position,
      );
    case 'unary': {
      const operand = evaluateScatter(expr.operand, { ...context, cursor: undefined });
      if (isUnknown(operand)) return operand;
      switch (expr.op) {
        case '+':
          if (context.cursor === undefined) return operand;
          return isUnknown(context.cursor) ? context.cursor : context.cursor + operand;
        case '-':
          return -operand;
        case '~':
          return ~operand;
        default:
          return bool(operand === 0n);
      }
    }
    case 'conditional': {
      const condition = evaluateScatter(expr.condition, { ...context, cursor: undefined });
      if (isUnknown(condition)) return condition;
      return evaluateScatter(condition !== 0n ? expr.whenTrue : expr.whenFalse, context);
    }
    case 'binary': {
      const plain = { ...context, cursor: undefined };
      const left = evaluateScatter(expr.left, plain);
      if (isUnknown(left)) return left;
      if (expr.op === '&&' && left === 0n) return 0n;
      if (expr.op === '||' && left !== 0n) return 1n;
      const right = evaluateScatter(expr.right, plain);
      if (isUnknown(right)) return right;
      return applyBinary(expr.op, left, right, () => {
        throw new ScatterError('division by zero', expr.position);
      });
    }
    case 'call': {
      const arg = (index: number, relative: boolean): Value => {
        const argument = expr.args[index];
        if (!argument) {
          throw new ScatterError(`${expr.name}() needs ${index + 1} argument(s)`, expr.position);
        }
        return evaluateScatter(argument, relative ? context : { ...context, cursor: undefined });
      };
      if (REGION_FUNCTIONS.has(expr.name)) {
        const target = expr.args[0];
        if (expr.args.length !== 1 || target?.kind !== 'name') {
          throw new ScatterError(`${expr.name}() takes one region name`, expr.position);
        }
        return context.region(expr.name as RegionFunction, target.name, expr.position);
      }
      switch (expr.name) {
        case 'alignexpr': {
          const value = arg(0, true);
          const alignment = arg(1, false);
          if (isUnknown(value)) return value;
          if (isUnknown(alignment)) return alignment;
          return alignUp(value, alignment);
        }
        case 'getpagesize':
          return PAGE_SIZE;
        case 'sizeofheaders':
          return context.headerSize;
        case 'defined': {
          const target = expr.args[0];
          if (expr.args.length !== 1 || target?.kind !== 'name') {
            throw new ScatterError('defined() takes one symbol name', expr.position);
          }
          return context.symbolDefined(target.name);
        }
        default:
          throw new ScatterError(`unknown function ${expr.name}()`, expr.position);
      }
    }
  }
}
