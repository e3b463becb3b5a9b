/**
 * Bounds-checked, endian-aware reads over a byte slice. Every read checks the slice end, so corrupt
 * offsets and lengths become an error built by `fail` instead of garbage or an exception from deep
 * inside DataView.
 */
/** One DataView per byte slice: readers are made by the ten thousand (one per DIE looked up). */
const views = new WeakMap<Uint8Array, DataView>();

function viewOf(bytes: Uint8Array): DataView {
  let view = views.get(bytes);
  if (!view) {
    view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    views.set(bytes, view);
  }
  return view;
}

export class ByteReader {
  readonly view: DataView;
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly littleEndian: boolean,
    private readonly fail: (message: string) => Error,
    start = 0,
    readonly end = bytes.length,
  ) {
    this.view = viewOf(bytes);
    this.pos = start;
  }

  /** Throws unless `n` more bytes are available at the current position. */
  need(n: number, what: string): void {
    if (n < 0 || this.pos + n > this.end) {
      throw this.fail(
        `${what} at offset ${this.pos} runs past the end (${this.end}) by ${this.pos + n - this.end} bytes`,
      );
    }
  }

  u8(): number {
    if (this.pos >= this.end) this.need(1, 'byte');
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2, '16-bit value');
    const v = this.view.getUint16(this.pos, this.littleEndian);
    this.pos += 2;
    return v;
  }

  u24(): number {
    this.need(3, '24-bit value');
    const b = this.bytes;
    const p = this.pos;
    this.pos += 3;
    return this.littleEndian
      ? b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16)
      : (b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!;
  }

  u32(): number {
    this.need(4, '32-bit value');
    const v = this.view.getUint32(this.pos, this.littleEndian);
    this.pos += 4;
    return v;
  }

  /** 64-bit value as a number; exact up to 2^53, which covers every address and size we report. */
  u64(): number {
    this.need(8, '64-bit value');
    const lo = this.view.getUint32(this.pos + (this.littleEndian ? 0 : 4), this.littleEndian);
    const hi = this.view.getUint32(this.pos + (this.littleEndian ? 4 : 0), this.littleEndian);
    this.pos += 8;
    return hi * 0x1_0000_0000 + lo;
  }

  i8(): number {
    const v = this.u8();
    return v >= 0x80 ? v - 0x100 : v;
  }

  /** Unsigned value of `size` bytes (1, 2, 4 or 8). */
  uint(size: number): number {
    switch (size) {
      case 1:
        return this.u8();
      case 2:
        return this.u16();
      case 4:
        return this.u32();
      case 8:
        return this.u64();
      default:
        throw this.fail(`unsupported value size ${size} at offset ${this.pos}`);
    }
  }

  /**
   * Unsigned LEB128. Bits beyond 2^53 cannot be represented, so longer encodings are rejected
   * (a hostile run of continuation bytes would otherwise be read for as long as the slice lasts).
   */
  uleb(): number {
    let result = 0;
    let mul = 1;
    const b = this.bytes;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) this.need(1, 'LEB128 value');
      const byte = b[this.pos++]!;
      result += (byte & 0x7f) * mul;
      if ((byte & 0x80) === 0) return result;
      mul *= 128;
      if (i >= 9) throw this.fail(`LEB128 value longer than 10 bytes at offset ${this.pos - 10}`);
    }
  }

  sleb(): number {
    let result = 0;
    let mul = 1;
    const b = this.bytes;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) this.need(1, 'LEB128 value');
      const byte = b[this.pos++]!;
      result += (byte & 0x7f) * mul;
      mul *= 128;
      if ((byte & 0x80) === 0) return byte & 0x40 ? result - mul : result;
      if (i >= 9) throw this.fail(`LEB128 value longer than 10 bytes at offset ${this.pos - 10}`);
    }
  }

  /** Skips a LEB128 value without decoding it. */
  skipLeb(): void {
    const b = this.bytes;
    for (let i = 0; ; i++) {
      if (this.pos >= this.end) this.need(1, 'LEB128 value');
      if ((b[this.pos++]! & 0x80) === 0) return;
      if (i >= 9) throw this.fail(`LEB128 value longer than 10 bytes at offset ${this.pos - 10}`);
    }
  }

  skip(n: number, what: string): void {
    this.need(n, what);
    this.pos += n;
  }

  /** Offset of the NUL ending the C string at the current position (checked), then moves past it. */
  skipCString(): number {
    const start = this.pos;
    const nul = this.bytes.indexOf(0, start);
    if (nul < 0 || nul >= this.end) throw this.fail(`unterminated string at offset ${start}`);
    this.pos = nul + 1;
    return start;
  }
}

const utf8 = new TextDecoder('utf-8');

/** The NUL-terminated string at `offset` in `bytes`; `fail` explains a bad offset. */
export function cString(
  bytes: Uint8Array,
  offset: number,
  fail: (message: string) => Error,
): string {
  if (offset < 0 || offset >= bytes.length)
    throw fail(`string offset ${offset} is outside the table (${bytes.length} bytes)`);
  let nul = bytes.indexOf(0, offset);
  if (nul < 0) nul = bytes.length;
  // Short ASCII names are by far the most common case; building them directly avoids
  // TextDecoder's per-call cost and a subarray object per string.
  let s = '';
  for (let i = offset; i < nul; i++) {
    const c = bytes[i]!;
    if (c >= 0x80) return utf8.decode(bytes.subarray(offset, nul));
    s += String.fromCharCode(c);
  }
  return s;
}
