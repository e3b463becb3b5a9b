/**
 * Punycode decoding (RFC 3492) for Rust v0 identifiers, which use `_` where RFC 3492 uses `-`
 * to separate the basic code points from the encoded ones.
 */
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}

function digit(c: string): number {
  if (c >= 'a' && c <= 'z') return c.charCodeAt(0) - 97;
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48 + 26;
  return -1;
}

/** Returns null on malformed input. */
export function decodePunycode(input: string): string | null {
  const sep = input.lastIndexOf('_');
  const output = sep >= 0 ? Array.from(input.slice(0, sep)).map((c) => c.codePointAt(0)!) : [];
  let i = 0;
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let pos = sep >= 0 ? sep + 1 : 0;
  while (pos < input.length) {
    const oldI = i;
    let w = 1;
    for (let k = BASE; ; k += BASE) {
      const c = input[pos++];
      if (c === undefined) return null;
      const d = digit(c);
      if (d < 0) return null;
      i += d * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (d < t) break;
      w *= BASE - t;
      if (!Number.isSafeInteger(i) || !Number.isSafeInteger(w)) return null;
    }
    const length = output.length + 1;
    bias = adapt(i - oldI, length, oldI === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return null;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}
