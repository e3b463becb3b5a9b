/**
 * Rust v0 symbol mangling (`_R…`, RFC 2603). Printed the way rustfilt prints by default (the
 * "alternate" form of rustc's own demangler): no crate disambiguators, no hashes, closures as
 * `{closure#0}`, impls as `<Type as Trait>`, const integers without a type suffix.
 */
import { decodePunycode } from './punycode.js';

/** One preallocated error: failures only mean "not v0" and need no stack trace. */
class V0Error extends Error {}
const FAIL = new V0Error('not a valid Rust v0 symbol');

const BASIC: Record<string, string> = {
  a: 'i8',
  b: 'bool',
  c: 'char',
  d: 'f64',
  e: 'str',
  f: 'f32',
  h: 'u8',
  i: 'isize',
  j: 'usize',
  l: 'i32',
  m: 'u32',
  n: 'i128',
  o: 'u128',
  s: 'i16',
  t: 'u16',
  u: '()',
  v: '...',
  x: 'i64',
  y: 'u64',
  z: '!',
  p: '_',
};

const SIGNED_INTS = 'asilxn';
const UNSIGNED_INTS = 'htmyoj';
const MAX_DEPTH = 300;

class V0Printer {
  out = '';
  private depth = 0;
  /** Lifetimes bound by enclosing `for<…>` binders. */
  private boundLifetimes = 0;
  /** While skipping an impl path the parser runs but prints nothing. */
  private muted = 0;

  constructor(
    private readonly s: string,
    private i: number,
  ) {}

  get position(): number {
    return this.i;
  }

  private print(text: string): void {
    if (this.muted === 0) this.out += text;
  }
  private peek(): string {
    return this.s[this.i] ?? '';
  }
  private next(): string {
    const c = this.s[this.i];
    if (c === undefined) throw FAIL;
    this.i++;
    return c;
  }
  private eat(c: string): boolean {
    if (this.s[this.i] === c) {
      this.i++;
      return true;
    }
    return false;
  }

  private base62(): number {
    if (this.eat('_')) return 0;
    let value = 0;
    for (;;) {
      const c = this.next();
      if (c === '_') return value + 1;
      let d: number;
      if (c >= '0' && c <= '9') d = c.charCodeAt(0) - 48;
      else if (c >= 'a' && c <= 'z') d = c.charCodeAt(0) - 97 + 10;
      else if (c >= 'A' && c <= 'Z') d = c.charCodeAt(0) - 65 + 36;
      else throw FAIL;
      // Crate disambiguators are 64-bit hashes: they only need to parse, not to be exact.
      value = value * 62 + d;
    }
  }

  private optBase62(tag: string): number {
    return this.eat(tag) ? this.base62() + 1 : 0;
  }

  private decimal(): number {
    const start = this.i;
    if (this.peek() === '0') {
      this.i++;
      return 0;
    }
    while (this.peek() >= '0' && this.peek() <= '9') this.i++;
    if (start === this.i) throw FAIL;
    return Number(this.s.slice(start, this.i));
  }

  private ident(): { name: string; dis: number } {
    const dis = this.optBase62('s');
    return { name: this.undisambiguatedIdent(), dis };
  }

  private undisambiguatedIdent(): string {
    const puny = this.eat('u');
    const length = this.decimal();
    this.eat('_');
    if (this.i + length > this.s.length) throw FAIL;
    const raw = this.s.slice(this.i, this.i + length);
    this.i += length;
    if (!puny) return raw;
    const decoded = decodePunycode(raw);
    if (decoded === null) throw FAIL;
    return decoded;
  }

  private backref<T>(fn: () => T): T {
    const start = this.i - 1;
    const target = this.base62();
    if (target >= start) throw FAIL;
    const saved = this.i;
    this.i = target;
    try {
      return fn();
    } finally {
      this.i = saved;
    }
  }

  private nested<T>(fn: () => T): T {
    if (++this.depth > MAX_DEPTH) throw FAIL;
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  path(inValue: boolean): void {
    this.nested(() => this.pathInner(inValue));
  }

  private pathInner(inValue: boolean): void {
    const tag = this.next();
    switch (tag) {
      case 'C': {
        this.print(this.ident().name);
        return;
      }
      case 'N': {
        const ns = this.next();
        this.path(inValue);
        const { name, dis } = this.ident();
        if (ns >= 'A' && ns <= 'Z') {
          const kind = ns === 'C' ? 'closure' : ns === 'S' ? 'shim' : ns;
          this.print(`::{${kind}${name ? `:${name}` : ''}#${dis}}`);
        } else if (name) {
          this.print(`::${name}`);
        }
        return;
      }
      case 'M':
      case 'X':
      case 'Y': {
        if (tag !== 'Y') {
          this.optBase62('s');
          this.muted++;
          try {
            this.path(false);
          } finally {
            this.muted--;
          }
        }
        this.print('<');
        this.type();
        if (tag !== 'M') {
          this.print(' as ');
          this.path(false);
        }
        this.print('>');
        return;
      }
      case 'I': {
        this.path(inValue);
        if (inValue) this.print('::');
        this.print('<');
        this.genericArgs();
        this.print('>');
        return;
      }
      case 'B':
        this.backref(() => this.path(inValue));
        return;
      default:
        throw FAIL;
    }
  }

  private genericArgs(): void {
    for (let k = 0; !this.eat('E'); k++) {
      if (k > 0) this.print(', ');
      this.genericArg();
    }
  }

  private genericArg(): void {
    if (this.eat('L')) this.lifetime(this.base62());
    else if (this.eat('K')) this.constValue();
    else this.type();
  }

  private lifetime(index: number): void {
    if (index === 0) {
      this.print("'_");
      return;
    }
    const depth = this.boundLifetimes - index;
    if (depth < 0) throw FAIL;
    this.print(depth < 26 ? `'${String.fromCharCode(97 + depth)}` : `'_${depth}`);
  }

  /** `for<'a, 'b> ` from a binder; returns how many lifetimes it bound. */
  private binder(): number {
    if (!this.eat('G')) return 0;
    const count = this.base62() + 1;
    this.print('for<');
    for (let k = 0; k < count; k++) {
      if (k > 0) this.print(', ');
      this.boundLifetimes++;
      this.lifetime(1);
    }
    this.print('> ');
    return count;
  }

  type(): void {
    this.nested(() => this.typeInner());
  }

  private typeInner(): void {
    const c = this.peek();
    const basic = BASIC[c];
    if (basic) {
      this.i++;
      this.print(basic);
      return;
    }
    switch (c) {
      case 'R':
      case 'Q': {
        this.i++;
        this.print('&');
        if (this.eat('L')) {
          const index = this.base62();
          if (index !== 0) {
            this.lifetime(index);
            this.print(' ');
          }
        }
        if (c === 'Q') this.print('mut ');
        this.type();
        return;
      }
      case 'P':
      case 'O':
        this.i++;
        this.print(c === 'P' ? '*const ' : '*mut ');
        this.type();
        return;
      case 'A':
      case 'S':
        this.i++;
        this.print('[');
        this.type();
        if (c === 'A') {
          this.print('; ');
          this.constValue();
        }
        this.print(']');
        return;
      case 'T': {
        this.i++;
        this.print('(');
        let count = 0;
        while (!this.eat('E')) {
          if (count > 0) this.print(', ');
          this.type();
          count++;
        }
        if (count === 1) this.print(',');
        this.print(')');
        return;
      }
      case 'F':
        this.i++;
        this.fnSig();
        return;
      case 'D':
        this.i++;
        this.dynBounds();
        return;
      case 'B':
        this.i++;
        this.backref(() => this.type());
        return;
      default:
        this.path(false);
    }
  }

  private fnSig(): void {
    const bound = this.binder();
    if (this.eat('U')) this.print('unsafe ');
    if (this.eat('K')) {
      if (this.eat('C')) this.print('extern "C" ');
      else this.print(`extern "${this.undisambiguatedIdent().replace(/_/g, '-')}" `);
    }
    this.print('fn(');
    for (let k = 0; !this.eat('E'); k++) {
      if (k > 0) this.print(', ');
      this.type();
    }
    this.print(')');
    if (this.eat('u')) {
      // Unit return types are not printed.
    } else {
      this.print(' -> ');
      this.type();
    }
    this.boundLifetimes -= bound;
  }

  private dynBounds(): void {
    const bound = this.binder();
    this.print('dyn ');
    for (let k = 0; !this.eat('E'); k++) {
      if (k > 0) this.print(' + ');
      this.dynTrait();
    }
    this.boundLifetimes -= bound;
    if (!this.eat('L')) throw FAIL;
    const index = this.base62();
    if (index !== 0) {
      this.print(' + ');
      this.lifetime(index);
    }
  }

  private dynTrait(): void {
    let open = this.pathMaybeOpenGenerics();
    while (this.eat('p')) {
      this.print(open ? ', ' : '<');
      open = true;
      this.print(this.undisambiguatedIdent());
      this.print(' = ');
      this.type();
    }
    if (open) this.print('>');
  }

  /** Prints a trait path, leaving its generic argument list open for associated-type bindings. */
  private pathMaybeOpenGenerics(): boolean {
    if (this.eat('B')) return this.backref(() => this.pathMaybeOpenGenerics());
    if (this.eat('I')) {
      this.path(false);
      this.print('<');
      this.genericArgs();
      return true;
    }
    this.path(false);
    return false;
  }

  private constValue(): void {
    this.nested(() => this.constInner());
  }

  private constInner(): void {
    const tag = this.next();
    if (tag === 'B') {
      this.backref(() => this.constValue());
      return;
    }
    if (tag === 'p') {
      this.print('_');
      return;
    }
    const negative = SIGNED_INTS.includes(tag) && this.eat('n');
    if (SIGNED_INTS.includes(tag) || UNSIGNED_INTS.includes(tag)) {
      const hex = this.hexDigits();
      const value = hex === '' ? 0n : BigInt('0x' + hex);
      this.print((negative ? '-' : '') + (hex.length > 16 ? `0x${hex}` : value.toString()));
      return;
    }
    if (tag === 'b') {
      const hex = this.hexDigits();
      if (hex !== '0' && hex !== '1' && hex !== '') throw FAIL;
      this.print(hex === '1' ? 'true' : 'false');
      return;
    }
    if (tag === 'c') {
      const point = parseInt(this.hexDigits() || '0', 16);
      this.print(charLiteral(point));
      return;
    }
    throw FAIL;
  }

  private hexDigits(): string {
    const start = this.i;
    while (/[0-9a-f]/.test(this.peek())) this.i++;
    const hex = this.s.slice(start, this.i).replace(/^0+(?=.)/, '');
    if (!this.eat('_')) throw FAIL;
    return hex;
  }
}

function charLiteral(point: number): string {
  const special: Record<number, string> = { 9: '\\t', 10: '\\n', 13: '\\r', 39: "\\'", 92: '\\\\' };
  if (special[point]) return `'${special[point]}'`;
  if (point < 0x20 || point === 0x7f) return `'\\u{${point.toString(16)}}'`;
  return `'${String.fromCodePoint(point)}'`;
}

/** Demangles one `_R…` symbol; returns null if it is not valid v0. */
export function demangleRustV0(mangled: string): string | null {
  if (!mangled.startsWith('_R')) return null;
  let body = mangled.slice(2);
  // rustfilt drops LLVM's local-symbol suffix; other dot suffixes are not v0.
  const llvm = body.search(/\.llvm\.[0-9A-Fa-f@.]+$/);
  if (llvm >= 0) body = body.slice(0, llvm);
  if (/^[0-9]/.test(body)) return null;
  try {
    const printer = new V0Printer(body, 0);
    printer.path(true);
    // An instantiating-crate path may follow; it is not printed.
    if (printer.position < body.length && /[A-Z]/.test(body[printer.position]!)) {
      const skip = new V0Printer(body, printer.position);
      skip.path(false);
      if (skip.position !== body.length) return null;
    } else if (printer.position !== body.length) return null;
    return printer.out;
  } catch (error) {
    if (error instanceof V0Error || error instanceof RangeError) return null;
    throw error;
  }
}
