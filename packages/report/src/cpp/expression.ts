/**
 * `#if` arithmetic (C11 6.10.1): after `defined` and macro expansion, remaining identifiers are 0 and
 * everything is computed in intmax_t / uintmax_t (64 bits), unsigned as soon as one operand is.
 */
import type { SourcePosition } from '../linker/errors.js';
import { PreprocessError } from './errors.js';
import type { Token } from './tokens.js';

interface Num {
  value: bigint;
  unsigned: boolean;
}

const MASK = (1n << 64n) - 1n;

function norm(value: bigint, unsigned: boolean): Num {
  const bits = value & MASK;
  return { value: unsigned || bits < 1n << 63n ? bits : bits - (1n << 64n), unsigned };
}

const BINARY: Record<string, number> = {
  '*': 10,
  '/': 10,
  '%': 10,
  '+': 9,
  '-': 9,
  '<<': 8,
  '>>': 8,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '==': 6,
  '!=': 6,
  '&': 5,
  '^': 4,
  '|': 3,
  '&&': 2,
  '||': 1,
};

const ESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, a: 7, b: 8, f: 12, v: 11 };

function integerLiteral(token: Token, position: SourcePosition): Num {
  const match = /^(0[xX][0-9A-Fa-f]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$/.exec(token.text);
  if (!match) {
    throw new PreprocessError(`'${token.text}' is not an integer in a #if expression`, position);
  }
  const digits = match[1]!;
  const value = /^0[bB]/.test(digits)
    ? BigInt(digits)
    : /^0[0-7]+$/.test(digits)
      ? BigInt(`0o${digits.slice(1)}`)
      : BigInt(digits);
  if (value > MASK) throw new PreprocessError(`integer ${token.text} is too large`, position);
  return norm(value, /u/i.test(match[2]!) || value >= 1n << 63n);
}

function charLiteral(token: Token): Num {
  const body = token.text.slice(1, -1);
  if (body.startsWith('\\')) {
    const rest = body.slice(1);
    if (/^x[0-9A-Fa-f]+$/.test(rest)) return norm(BigInt(`0x${rest.slice(1)}`), false);
    if (/^[0-7]{1,3}$/.test(rest)) return norm(BigInt(`0o${rest}`), false);
    return norm(BigInt(ESCAPES[rest] ?? rest.charCodeAt(0)), false);
  }
  return norm(BigInt(body.charCodeAt(0) || 0), false);
}

/** Evaluates the tokens of a `#if` / `#elif` once `defined` and macros are replaced. */
export function evaluateCondition(tokens: Token[], position: SourcePosition): boolean {
  let index = 0;
  const fail = (message: string): never => {
    throw new PreprocessError(`${message} in #if expression`, position);
  };
  const peek = (): Token | undefined => tokens[index];

  // `live` is false in the operand C does not evaluate (`0 && 1/0` is fine).
  const primary = (live: boolean): Num => {
    const token = tokens[index++];
    if (!token) return fail('expected a value');
    if (token.kind === 'punct' && token.text === '(') {
      const value = conditional(live);
      if (tokens[index]?.text !== ')') fail("missing ')'");
      index++;
      return value;
    }
    if (token.kind === 'punct' && ['+', '-', '~', '!'].includes(token.text)) {
      const operand = primary(live);
      switch (token.text) {
        case '+':
          return operand;
        case '-':
          return norm(-operand.value, operand.unsigned);
        case '~':
          return norm(~operand.value, operand.unsigned);
        default:
          return norm(operand.value === 0n ? 1n : 0n, false);
      }
    }
    if (token.kind === 'number') return integerLiteral(token, position);
    if (token.kind === 'char') return charLiteral(token);
    if (token.kind === 'ident') return norm(token.text === 'true' ? 1n : 0n, false);
    return fail(`unexpected '${token.text}'`);
  };

  const binary = (minimum: number, live: boolean): Num => {
    let left = primary(live);
    for (;;) {
      const op = peek();
      const precedence = op?.kind === 'punct' ? BINARY[op.text] : undefined;
      if (precedence === undefined || precedence < minimum) return left;
      index++;
      const decided =
        (op!.text === '&&' && left.value === 0n) || (op!.text === '||' && left.value !== 0n);
      const right = binary(precedence + 1, live && !decided);
      const divideByZero = live ? () => fail('division by zero') : () => norm(0n, false);
      left = apply(op!.text, left, right, divideByZero);
    }
  };

  const conditional = (live: boolean): Num => {
    const condition = binary(1, live);
    if (peek()?.text !== '?') return condition;
    index++;
    const whenTrue = conditional(live && condition.value !== 0n);
    if (peek()?.text !== ':') fail("missing ':'");
    index++;
    const whenFalse = conditional(live && condition.value === 0n);
    const unsigned = whenTrue.unsigned || whenFalse.unsigned;
    return norm(condition.value !== 0n ? whenTrue.value : whenFalse.value, unsigned);
  };

  if (tokens.length === 0) fail('no value');
  const result = conditional(true);
  if (index < tokens.length) fail(`unexpected '${tokens[index]!.text}'`);
  return result.value !== 0n;
}

/** `divideByZero` throws where the operation is evaluated and gives 0 where C skips it. */
function apply(op: string, left: Num, right: Num, divideByZero: () => Num): Num {
  const unsigned = left.unsigned || right.unsigned;
  const l = norm(left.value, unsigned).value;
  const r = norm(right.value, unsigned).value;
  const bool = (value: boolean): Num => norm(value ? 1n : 0n, false);
  switch (op) {
    case '*':
      return norm(l * r, unsigned);
    case '/':
    case '%':
      if (r === 0n) return divideByZero();
      return norm(op === '/' ? l / r : l % r, unsigned);
    case '+':
      return norm(l + r, unsigned);
    case '-':
      return norm(l - r, unsigned);
    case '<<':
      return norm(l << (r & 63n), left.unsigned);
    case '>>':
      return norm(norm(l, left.unsigned).value >> (r & 63n), left.unsigned);
    case '<':
      return bool(l < r);
    case '>':
      return bool(l > r);
    case '<=':
      return bool(l <= r);
    case '>=':
      return bool(l >= r);
    case '==':
      return bool(l === r);
    case '!=':
      return bool(l !== r);
    case '&':
      return norm(l & r, unsigned);
    case '^':
      return norm(l ^ r, unsigned);
    case '|':
      return norm(l | r, unsigned);
    case '&&':
      return bool(l !== 0n && r !== 0n);
    default:
      return bool(l !== 0n || r !== 0n);
  }
}
