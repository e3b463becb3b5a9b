/**
 * C operators on exact integers, as IAR ILINK and Arm armlink compute their configuration
 * expressions (no wrap-around: `~(n-1)` masks work as two's complement on any width).
 */

/** Binary operators by C precedence (higher binds tighter). */
export const C_PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '<=': 7,
  '>': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

function bool(value: boolean): bigint {
  return value ? 1n : 0n;
}

/** `left op right`; `divideByZero` is called (and must throw) for `/` and `%` by zero. */
export function applyBinary(
  op: string,
  left: bigint,
  right: bigint,
  divideByZero: () => never,
): bigint {
  switch (op) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
    case '%':
      if (right === 0n) divideByZero();
      return op === '/' ? left / right : left % right;
    case '<<':
      return left << right;
    case '>>':
      return left >> right;
    case '&':
      return left & right;
    case '|':
      return left | right;
    case '^':
      return left ^ right;
    case '==':
      return bool(left === right);
    case '!=':
      return bool(left !== right);
    case '<':
      return bool(left < right);
    case '<=':
      return bool(left <= right);
    case '>':
      return bool(left > right);
    case '>=':
      return bool(left >= right);
    case '&&':
      return bool(left !== 0n && right !== 0n);
    case '||':
      return bool(left !== 0n || right !== 0n);
    default:
      throw new Error(`unknown operator '${op}'`);
  }
}
