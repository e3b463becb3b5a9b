import { LINE_LIMIT, UINT64_LIMIT, type UploadEnvelope } from '@memtrail/contracts';
import { rowsClosing, rowsOpening } from './block.js';
import { nameHash, type SymbolColumns } from './build.js';

/**
 * The symbols of a JSON upload read straight from its bytes, for the split (`splitSymbols`),
 * instead of `JSON.parse` building an object per symbol that the split then reads and encodes
 * again. Written by hand because this is the cost of a JSON upload's acknowledgement: for 10k
 * symbols, parsing and splitting took about 31 ms of a decode thread, this scan and the split
 * about 23 (docs/benchmarks.md, "Upload decode"). Its arrays take about 1.5 bytes per byte of
 * the upload, far less than the objects `JSON.parse` builds.
 *
 * It takes only what it can read with certainty — well-formed JSON whose symbols pass the
 * upload's checks, integers written as plain digits — and answers null for anything else, so
 * that the caller decodes that upload with `JSON.parse` and names its problems as before. A
 * block's canonical row reuses the upload's own bytes for a string without escapes: such a
 * string is already what `JSON.stringify` writes for it (valid UTF-8, no control characters, no
 * `"` or `\`).
 */
export interface ScannedUpload {
  /** The envelope with `memory_analysis.symbols` as an empty array. */
  envelope: UploadEnvelope;
  columns: SymbolColumns;
}

/** Not readable with certainty here: the caller parses the upload instead. */
class NotPlain extends Error {}
function notPlain(): never {
  throw new NotPlain();
}

// A symbol's text fields, in the order of a canonical row (block.ts), then its section.
const NAME = 0;
const FULL_NAME = 1;
const TYPE = 2;
const BINDING = 3;
const VISIBILITY = 4;
const SOURCE_FILE = 5;
const ARCHIVE = 6;
const OBJECT_FILE = 7;
const SECTION = 8;
// Numbers, after the texts.
const ADDRESS = 9;
const SIZE = 10;
const SOURCE_LINE = 11;
const SLOTS = 12;
const UNKNOWN = -1;

/** Each field's key with its closing quote. */
const QUOTED_KEYS = [
  'name',
  'full_name',
  'type',
  'binding',
  'visibility',
  'source_file',
  'archive',
  'object_file',
  'section',
  'address',
  'size',
  'source_line',
].map((key) => Uint8Array.from(`${key}"`, (c) => c.charCodeAt(0)));

/** Each quoted key's whole 4-byte words, little-endian (`field` compares them at once). */
const KEY_WORDS = QUOTED_KEYS.map((key) =>
  Uint32Array.from({ length: key.length >> 2 }, (_, w) =>
    new DataView(key.buffer).getUint32(4 * w, true),
  ),
);

/** What a canonical row holds for a text the upload leaves out (canonicalRow). */
const DEFAULTS = ['""', '""', '"NOTYPE"', '""', '""', '""', '""', '""'].map((text) =>
  Uint8Array.from(text, (c) => c.charCodeAt(0)),
);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const ZERO = 0x30;
const NINE = 0x39;

/** Fields whose strings are hashed as they are read: names, and those interned by hash. */
const HASHED = (1 << NAME) | (1 << SECTION) | (1 << SOURCE_FILE);

// String flags.
const ESCAPED = 1;
const NON_ASCII = 2;

/**
 * Digits beyond which a whole number is no longer exact when summed digit by digit; up to
 * this many, plain digits are also how JSON.stringify writes the number.
 */
const EXACT_DIGITS = 15;

/** Reads the JSON upload in `bytes` (valid UTF-8); null when it is not plain enough. */
export function scanJsonUpload(bytes: Buffer): ScannedUpload | null {
  try {
    return new Scanner(bytes).upload();
  } catch (error) {
    if (error instanceof NotPlain || error instanceof SyntaxError) return null;
    throw error;
  }
}

class Scanner {
  private p = 0;
  private count = 0;
  private capacity: number;
  private readonly u: Uint8Array;
  private readonly view: DataView;
  // Per symbol and field (SLOTS): the token's bounds (a string's with its quotes; start -1: none),
  // a string's flags and hash (`string`); per symbol its numbers, name hash and section.
  private starts: Int32Array;
  private ends: Int32Array;
  private flags: Uint8Array;
  private hashes: Uint32Array;
  private addresses: Float64Array;
  private sizes: Float64Array;
  private lines: Float64Array;
  private nameHashes: Uint32Array;
  private sectionOf: Uint32Array;
  /** Section ids by name, and by the hash of their bytes (with the first symbol seen in each). */
  private readonly sectionIds = new Map<string, number>();
  private readonly sectionsByHash = new Map<number, number>();
  private readonly sectionFirst: number[] = [];
  private hash = 0;
  /** Offset of the closing quote of the key read last. */
  private keyEnd = 0;

  constructor(private readonly b: Buffer) {
    this.u = new Uint8Array(b.buffer, b.byteOffset, b.length);
    this.view = new DataView(b.buffer, b.byteOffset, b.length);
    this.capacity = Math.max(16, Math.ceil(b.length / 128));
    this.starts = new Int32Array(this.capacity * SLOTS);
    this.ends = new Int32Array(this.capacity * SLOTS);
    this.flags = new Uint8Array(this.capacity * SLOTS);
    this.hashes = new Uint32Array(this.capacity * SLOTS);
    this.addresses = new Float64Array(this.capacity);
    this.sizes = new Float64Array(this.capacity);
    this.lines = new Float64Array(this.capacity);
    this.nameHashes = new Uint32Array(this.capacity);
    this.sectionOf = new Uint32Array(this.capacity);
  }

  upload(): ScannedUpload | null {
    const b = this.b;
    let symbolsStart = -1;
    let symbolsEnd = -1;
    let analysisSeen = false;
    this.expect(OPEN_BRACE);
    this.members(CLOSE_BRACE, (key) => {
      if (!this.isKey(key, 'memory_analysis')) return this.skipValue(0);
      if (analysisSeen) notPlain();
      analysisSeen = true;
      this.expect(OPEN_BRACE);
      this.members(CLOSE_BRACE, (inner) => {
        if (!this.isKey(inner, 'symbols')) return this.skipValue(1);
        if (symbolsStart >= 0) notPlain();
        symbolsStart = this.p;
        this.symbols();
        symbolsEnd = this.p;
      });
    });
    this.ws();
    if (this.p !== b.length || symbolsStart < 0) return null;
    // The rest of the envelope is small: JSON.parse reads it, symbols left out.
    const rest = Buffer.concat([b.subarray(0, symbolsStart), EMPTY_ARRAY, b.subarray(symbolsEnd)]);
    const envelope = JSON.parse(rest.toString('utf8')) as UploadEnvelope;
    return { envelope, columns: this.columns() };
  }

  private ws(): void {
    const b = this.u;
    let c = b[this.p];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++this.p];
  }

  private expect(byte: number): void {
    this.ws();
    if (this.u[this.p] !== byte) notPlain();
    this.p++;
  }

  /** An object's members after its `{`: `each` is called at each value with its key's bounds. */
  private members(close: number, each: (key: number) => void): void {
    this.ws();
    if (this.u[this.p] === close) {
      this.p++;
      return;
    }
    for (;;) {
      this.expect(QUOTE);
      const key = this.key();
      this.expect(COLON);
      this.ws();
      each(key);
      this.ws();
      const c = this.u[this.p++];
      if (c === close) return;
      if (c !== COMMA) notPlain();
    }
  }

  /** A key without escapes, from `start` (after its quote) to its closing quote. */
  private key(start = this.p): number {
    const u = this.u;
    const n = u.length;
    let p = start;
    for (;;) {
      if (p >= n) notPlain();
      const c = u[p++]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH || c < 0x20) notPlain();
    }
    this.keyEnd = p - 1;
    this.p = p;
    return start;
  }

  /** Whether the key read last, which starts at `start`, is `name`. */
  private isKey(start: number, name: string): boolean {
    const length = this.keyEnd - start;
    if (length !== name.length) return false;
    for (let i = 0; i < length; i++) if (this.u[start + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /**
   * The field a symbol's key names, read from its first byte after the quote and checked with
   * its closing quote in one pass; UNKNOWN (the key passed over) for any other key.
   */
  private field(): number {
    const u = this.u;
    const p = this.p;
    let field = UNKNOWN;
    switch (u[p]) {
      case 0x6e:
        field = NAME;
        break;
      case 0x61:
        field = u[p + 1] === 0x64 ? ADDRESS : ARCHIVE;
        break;
      case 0x73:
        field =
          u[p + 1] === 0x69
            ? SIZE
            : u[p + 1] === 0x65
              ? SECTION
              : u[p + 7] === 0x66
                ? SOURCE_FILE
                : SOURCE_LINE;
        break;
      case 0x74:
        field = TYPE;
        break;
      case 0x62:
        field = BINDING;
        break;
      case 0x76:
        field = VISIBILITY;
        break;
      case 0x66:
        field = FULL_NAME;
        break;
      case 0x6f:
        field = OBJECT_FILE;
        break;
    }
    if (field !== UNKNOWN) {
      // Compared four bytes at a time: keys are a third of a symbol's bytes.
      const key = QUOTED_KEYS[field]!;
      const words = KEY_WORDS[field]!;
      const length = key.length;
      if (p + length <= u.length) {
        const view = this.view;
        let same = true;
        for (let w = 0; w < words.length && same; w++)
          same = view.getUint32(p + 4 * w, true) === words[w];
        for (let k = 4 * words.length; k < length && same; k++) same = u[p + k] === key[k];
        if (same) {
          this.p = p + length;
          return field;
        }
      }
    }
    this.key(p);
    return UNKNOWN;
  }

  /** An array's elements after its `[`: `each` reads one, at its first byte. */
  private elements(each: () => void): void {
    this.ws();
    if (this.u[this.p] === CLOSE_BRACKET) {
      this.p++;
      return;
    }
    for (;;) {
      this.ws();
      each();
      this.ws();
      const c = this.u[this.p++];
      if (c === CLOSE_BRACKET) return;
      if (c !== COMMA) notPlain();
    }
  }

  private symbols(): void {
    this.expect(OPEN_BRACKET);
    this.elements(() => {
      this.expect(OPEN_BRACE);
      this.symbol();
    });
  }

  /**
   * One symbol, after its `{`; anything the upload's checks would refuse is not plain. Written
   * out as one loop (no callback per member): this runs for every field of every symbol.
   */
  private symbol(): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count;
    const at = i * SLOTS;
    const { u, starts, ends, flags, hashes } = this;
    for (let f = 0; f < SLOTS; f++) starts[at + f] = -1;
    for (;;) {
      if (u[this.p]! <= 0x20) this.ws();
      if (u[this.p++] !== QUOTE) notPlain();
      const field = this.field();
      if (u[this.p]! <= 0x20) this.ws();
      if (u[this.p++] !== COLON) notPlain();
      if (u[this.p]! <= 0x20) this.ws();
      if (field === UNKNOWN) this.skipValue(2);
      else if (u[this.p] === 0x6e && field !== NAME && field !== ADDRESS && field !== SIZE) {
        this.literal('null');
        starts[at + field] = -1;
      } else if (field >= ADDRESS) {
        starts[at + field] = this.p;
        const value = this.count64();
        ends[at + field] = this.p;
        if (field === ADDRESS) this.addresses[i] = value;
        else if (field === SIZE) this.sizes[i] = value;
        else if ((this.lines[i] = value) >= LINE_LIMIT) notPlain();
      } else {
        if (u[this.p] !== QUOTE) notPlain();
        starts[at + field] = this.p;
        const hashing = ((HASHED >> field) & 1) === 1;
        flags[at + field] = this.string(hashing);
        if (hashing) hashes[at + field] = this.hash;
        ends[at + field] = this.p;
      }
      if (u[this.p]! <= 0x20) this.ws();
      const next = u[this.p++];
      if (next === CLOSE_BRACE) break;
      if (next !== COMMA) notPlain();
    }
    if (starts[at + NAME]! < 0 || starts[at + ADDRESS]! < 0 || starts[at + SIZE]! < 0) notPlain();
    // A name with escapes or beyond ASCII is hashed as nameHash does, over UTF-16 code units.
    this.nameHashes[i] =
      flags[at + NAME]! === 0 ? hashes[at + NAME]! : nameHash(this.text(i, NAME));
    this.sectionOf[i] = this.section(i);
    this.count++;
  }

  /** A whole number written as plain digits, below 2^64 (an address, size or line). */
  private count64(): number {
    const u = this.u;
    const n = u.length;
    const start = this.p;
    let p = start;
    let value = 0;
    while (p < n && u[p]! >= ZERO && u[p]! <= NINE) value = value * 10 + (u[p++]! - ZERO);
    const digits = p - start;
    const c = p < n ? u[p] : QUOTE;
    // No digits, a leading zero, a fraction or an exponent: JSON.parse decides.
    if (digits === 0 || (digits > 1 && u[start] === ZERO) || c === 0x2e || c === 0x65 || c === 0x45)
      notPlain();
    if (digits > EXACT_DIGITS) value = Number(this.b.toString('latin1', start, p));
    if (!(value < UINT64_LIMIT)) notPlain();
    this.p = p;
    return value;
  }

  /**
   * A string token (at its quote); answers its flags. With `hashing`, its bytes are hashed as
   * nameHash hashes an ASCII name (into `hash`).
   */
  private string(hashing = false): number {
    const u = this.u;
    const n = u.length;
    let p = this.p + 1;
    let flag = 0;
    let h = 0x811c9dc5;
    for (;;) {
      if (p >= n) notPlain();
      const c = u[p++]!;
      if (c === QUOTE) break;
      if (c < 0x20) notPlain();
      if (c === BACKSLASH) {
        flag |= ESCAPED;
        p = this.escape(p);
      } else if (c >= 0x80) flag |= NON_ASCII;
      if (hashing) h = Math.imul(h ^ c, 0x01000193);
    }
    this.p = p;
    this.hash = h >>> 0;
    return flag;
  }

  /** After a backslash at `p - 1`: one of JSON's escapes (or not plain); answers where it ends. */
  private escape(p: number): number {
    const u = this.u;
    const c = u[p++];
    if (c === 0x75) {
      for (let k = 0; k < 4; k++) {
        const h = u[p++];
        const hex =
          h !== undefined &&
          ((h >= ZERO && h <= NINE) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66));
        if (!hex) notPlain();
      }
    } else if (!(c !== undefined && ESCAPES.includes(c))) notPlain();
    return p;
  }

  /** Any JSON value, checked as JSON.parse would, and passed over. */
  private skipValue(depth: number): void {
    if (depth > MAX_DEPTH) notPlain();
    const c = this.u[this.p];
    if (c === QUOTE) this.string();
    else if (c === OPEN_BRACE) {
      this.p++;
      this.members(CLOSE_BRACE, () => this.skipValue(depth + 1));
    } else if (c === OPEN_BRACKET) {
      this.p++;
      this.elements(() => this.skipValue(depth + 1));
    } else if (c === 0x74) this.literal('true');
    else if (c === 0x66) this.literal('false');
    else if (c === 0x6e) this.literal('null');
    else this.number();
  }

  private literal(word: string): void {
    for (let k = 0; k < word.length; k++) if (this.u[this.p + k] !== word.charCodeAt(k)) notPlain();
    this.p += word.length;
  }

  /** Any JSON number (RFC 8259: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?), passed over. */
  private number(): void {
    const b = this.u;
    const digits = () => {
      const start = this.p;
      while (b[this.p]! >= ZERO && b[this.p]! <= NINE) this.p++;
      if (this.p === start) notPlain();
      return this.p - start;
    };
    if (b[this.p] === 0x2d) this.p++;
    const first = b[this.p];
    if (digits() > 1 && first === ZERO) notPlain();
    if (b[this.p] === 0x2e) {
      this.p++;
      digits();
    }
    if (b[this.p] === 0x65 || b[this.p] === 0x45) {
      this.p++;
      if (b[this.p] === 0x2b || b[this.p] === 0x2d) this.p++;
      digits();
    }
  }

  private grow(): void {
    this.capacity *= 2;
    const more = <T extends Int32Array | Uint8Array | Float64Array | Uint32Array>(
      from: T,
      per: number,
    ): T => {
      const to = new (from.constructor as new (n: number) => T)(this.capacity * per);
      to.set(from);
      return to;
    };
    this.starts = more(this.starts, SLOTS);
    this.ends = more(this.ends, SLOTS);
    this.flags = more(this.flags, SLOTS);
    this.hashes = more(this.hashes, SLOTS);
    this.addresses = more(this.addresses, 1);
    this.sizes = more(this.sizes, 1);
    this.lines = more(this.lines, 1);
    this.nameHashes = more(this.nameHashes, 1);
    this.sectionOf = more(this.sectionOf, 1);
  }

  /** A text field of symbol i as a string ('' when it has none). */
  private text(i: number, field: number): string {
    const at = i * SLOTS + field;
    const start = this.starts[at]!;
    if (start < 0) return '';
    return this.flags[at]! & ESCAPED
      ? (JSON.parse(this.b.toString('utf8', start, this.ends[at])) as string)
      : this.b.toString('utf8', start + 1, this.ends[at]! - 1);
  }

  /** Whether symbols i and j hold the same bytes in a text field (both without it: true). */
  private sameText(i: number, j: number, field: number): boolean {
    const a = this.starts[i * SLOTS + field]!;
    const b = this.starts[j * SLOTS + field]!;
    if (a < 0 || b < 0) return a === b;
    const length = this.ends[i * SLOTS + field]! - a;
    if (this.ends[j * SLOTS + field]! - b !== length) return false;
    const u = this.u;
    for (let k = 0; k < length; k++) if (u[a + k] !== u[b + k]) return false;
    return true;
  }

  /**
   * Symbol i's section id: found by the hash of its bytes (checked against the first symbol
   * seen with that id), so that a name is decoded once per section, not once per symbol.
   */
  private section(i: number): number {
    const at = i * SLOTS + SECTION;
    const hash = this.starts[at]! < 0 ? NO_TEXT : this.hashes[at]! & SMALL;
    const known = this.sectionsByHash.get(hash);
    if (known !== undefined && this.sameText(i, this.sectionFirst[known]!, SECTION)) return known;
    const name = this.text(i, SECTION);
    let id = this.sectionIds.get(name);
    if (id === undefined) {
      this.sectionIds.set(name, (id = this.sectionIds.size));
      this.sectionFirst.push(i);
    }
    if (known === undefined) this.sectionsByHash.set(hash, id);
    return id;
  }

  /** Every symbol's source file, each distinct one decoded once (as sections are). */
  private sourceFiles(): string[] {
    const files = new Array<string>(this.count);
    const byHash = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const at = i * SLOTS + SOURCE_FILE;
      const hash = this.starts[at]! < 0 ? NO_TEXT : this.hashes[at]! & SMALL;
      const seen = byHash.get(hash);
      if (seen !== undefined && this.sameText(i, seen, SOURCE_FILE)) files[i] = files[seen]!;
      else {
        files[i] = this.text(i, SOURCE_FILE);
        if (seen === undefined) byHash.set(hash, i);
      }
    }
    return files;
  }

  private columns(): SymbolColumns {
    const count = this.count;
    const { starts, ends, flags, u, b, sizes, lines } = this;
    const addresses = this.addresses.subarray(0, count);
    const out = new RowWriter();
    const openings = new Map<string, Buffer>();
    const text = (at: number, field: number) => {
      const start = starts[at + field]!;
      if (start < 0) out.slice(DEFAULTS[field]!, 0, DEFAULTS[field]!.length);
      else if (flags[at + field]! & ESCAPED)
        out.bytes(
          Buffer.from(JSON.stringify(JSON.parse(b.toString('utf8', start, ends[at + field])))),
        );
      else out.slice(u, start, ends[at + field]!);
    };
    // A number as sent when that is how JSON.stringify writes it; a line left out is 0.
    const number = (at: number, field: number, value: number) => {
      const start = starts[at + field]!;
      if (start < 0) out.byte(ZERO);
      else if (ends[at + field]! - start <= EXACT_DIGITS) out.slice(u, start, ends[at + field]!);
      else out.number(value);
    };
    return {
      count,
      sectionOf: this.sectionOf.subarray(0, count),
      sectionNames: [...this.sectionIds.keys()],
      addresses,
      sizes: sizes.subarray(0, count),
      nameHashes: this.nameHashes.subarray(0, count),
      name: (i) => this.text(i, NAME),
      sourceFiles: () => this.sourceFiles(),
      encodeBlock(section, order, start, end, base) {
        let opening = openings.get(section);
        if (!opening) openings.set(section, (opening = Buffer.from(rowsOpening(section))));
        out.begin();
        out.bytes(opening);
        for (let k = start; k < end; k++) {
          const i = order[k]!;
          const at = i * SLOTS;
          let bound = 128;
          for (let f = 0; f < SECTION; f++)
            if (starts[at + f]! >= 0) bound += ends[at + f]! - starts[at + f]!;
          out.reserve(bound);
          if (k !== start) out.byte(COMMA);
          out.byte(OPEN_BRACKET);
          text(at, NAME);
          out.byte(COMMA);
          text(at, FULL_NAME);
          out.byte(COMMA);
          out.number(addresses[i]! - base);
          out.byte(COMMA);
          number(at, SIZE, sizes[i]!);
          for (let f = TYPE; f <= SOURCE_FILE; f++) {
            out.byte(COMMA);
            text(at, f);
          }
          out.byte(COMMA);
          number(at, SOURCE_LINE, lines[i]!);
          out.byte(COMMA);
          text(at, ARCHIVE);
          out.byte(COMMA);
          text(at, OBJECT_FILE);
          out.byte(CLOSE_BRACKET);
        }
        out.bytes(ROWS_CLOSING);
        return out.end();
      },
    };
  }
}

/** The key of a text left out or null in maps by hash (no hash & SMALL is negative). */
const NO_TEXT = -1;
/** Hashes as map keys are cut to 30 bits: V8 keeps such numbers unboxed, and far faster. */
const SMALL = 0x3fffffff;
const EMPTY_ARRAY = Buffer.from('[]');
const ROWS_CLOSING = Buffer.from(rowsClosing);
/** Escaped characters JSON allows besides \u: " \ / b f n r t. */
const ESCAPES = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];
/** Nesting of unknown values the scan follows (JSON.parse's limit is far deeper). */
const MAX_DEPTH = 64;

/**
 * Canonical blocks written one after another into shared buffers: a block is a view of the
 * buffer it was written to (a full buffer is replaced, not grown, so earlier views stay).
 */
class RowWriter {
  private buffer = Buffer.allocUnsafe(1 << 16);
  private length = 0;
  private blockStart = 0;

  begin(): void {
    this.blockStart = this.length;
  }

  end(): Buffer {
    return this.buffer.subarray(this.blockStart, this.length);
  }

  reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const partial = this.length - this.blockStart;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, partial + n));
    this.buffer.copy(next, 0, this.blockStart, this.length);
    this.buffer = next;
    this.blockStart = 0;
    this.length = partial;
  }

  byte(c: number): void {
    this.buffer[this.length++] = c;
  }

  bytes(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  /** Bytes `from[start … end)`: short runs by hand, cheaper than a native call each. */
  slice(from: Uint8Array, start: number, end: number): void {
    const buffer = this.buffer;
    if (end - start > 48) {
      buffer.set(from.subarray(start, end), this.length);
      this.length += end - start;
      return;
    }
    let at = this.length;
    for (let k = start; k < end; k++) buffer[at++] = from[k]!;
    this.length = at;
  }

  /** A whole number as JSON.stringify writes it. */
  number(value: number): void {
    if (!Number.isSafeInteger(value)) {
      this.bytes(Buffer.from(String(value), 'latin1'));
      return;
    }
    if (value < 10) {
      this.buffer[this.length++] = ZERO + value;
      return;
    }
    let digits = 0;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) this.buffer[--at] = ZERO + (v % 10);
  }
}
