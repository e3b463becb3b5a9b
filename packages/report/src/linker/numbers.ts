import { LinkerScriptError, type SourcePosition } from './errors.js';

/** ld does all arithmetic on a 64-bit bfd_vma. */
export const VMA_MASK = (1n << 64n) - 1n;

const DIGIT_VALUES = '0123456789abcdef';

/**
 * Reads an integer the way ld's number tokens are read (bfd_scan_vma): with base 0 a `0x` prefix
 * means hex and a leading `0` means octal; digits are consumed until the first one that is not
 * valid in the base, so `019` is 1 and `08` is 0, exactly as ld computes them. ld silently
 * saturates literals wider than 64 bits; that is always a mistake in the script, so we refuse it.
 */
export function scanVma(text: string, base: number, position: SourcePosition): bigint {
  let digits = text;
  let radix = base;
  if (radix === 0) {
    if (/^0[xX]/.test(digits)) {
      radix = 16;
      digits = digits.slice(2);
    } else if (digits.startsWith('0')) {
      radix = 8;
    } else {
      radix = 10;
    }
  } else if (radix === 16 && /^0[xX]/.test(digits)) {
    digits = digits.slice(2);
  }
  let value = 0n;
  for (const char of digits.toLowerCase()) {
    const digit = DIGIT_VALUES.indexOf(char);
    if (digit < 0 || digit >= radix) break;
    value = value * BigInt(radix) + BigInt(digit);
    if (value > VMA_MASK) {
      throw new LinkerScriptError(
        'number-too-large',
        `number ${text} does not fit in 64 bits (GNU ld would silently use 0xffffffffffffffff)`,
        position,
      );
    }
  }
  return value;
}

/** Matches ld's first number rule: `$hex`, `0xhex` or decimal/octal digits, with K/M. */
const PLAIN_NUMBER = /^(?:(?:\$|0[xX])[0-9A-Fa-f]+|[0-9]+)[KkMm]?/;
/** ld's second number rule (expression context): hex digits plus a base suffix h/x/o/b/d. */
const SUFFIXED_NUMBER = /^[0-9A-Fa-f]+[HhXxOoBbDd]/;

export interface NumberMatch {
  length: number;
  value: bigint;
}

export function matchPlainNumber(text: string, position: SourcePosition): NumberMatch | undefined {
  const match = PLAIN_NUMBER.exec(text);
  if (!match) return undefined;
  let literal = match[0];
  let multiplier = 1n;
  const last = literal[literal.length - 1];
  if (last === 'K' || last === 'k') multiplier = 1024n;
  if (last === 'M' || last === 'm') multiplier = 1024n * 1024n;
  if (multiplier !== 1n) literal = literal.slice(0, -1);
  const value = literal.startsWith('$')
    ? scanVma(literal.slice(1), 16, position)
    : scanVma(literal, 0, position);
  return { length: match[0].length, value: (value * multiplier) & VMA_MASK };
}

export function matchSuffixedNumber(
  text: string,
  position: SourcePosition,
): NumberMatch | undefined {
  const match = SUFFIXED_NUMBER.exec(text);
  if (!match) return undefined;
  const literal = match[0];
  const suffix = literal[literal.length - 1]!.toLowerCase();
  const base = suffix === 'h' || suffix === 'x' ? 16 : suffix === 'o' ? 8 : suffix === 'b' ? 2 : 10;
  return { length: literal.length, value: scanVma(literal.slice(0, -1), base, position) };
}
