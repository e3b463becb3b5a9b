/**
 * A growable byte buffer with LEB128 varints and length-prefixed UTF-8 strings: the version
 * record is read on every report, diff and ingestion, so it is a compact binary form rather
 * than JSON (a 40k-symbol report has about 1,500 entries, most of them a 16-byte hash).
 */
/** A number a record cannot hold: a report whose addresses or sizes reach 2^52 or so. */
export class UnstorableNumber extends RangeError {
  constructor(readonly value: number) {
    super(`${value} is not an unsigned integer below 2^53`);
    this.name = 'UnstorableNumber';
  }
}

export class ByteWriter {
  private buffer = Buffer.allocUnsafe(4096);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  /** An unsigned integer up to 2^53 - 1 (addresses and sizes of 64-bit targets fit a double). */
  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new UnstorableNumber(value);
    this.reserve(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }

  /** A signed integer, zigzag-encoded so that small negative deltas stay short. */
  int(value: number): void {
    this.uint(value < 0 ? -2 * value - 1 : 2 * value);
  }

  bytes(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  string(value: string): void {
    const encoded = Buffer.from(value, 'utf8');
    this.uint(encoded.length);
    this.bytes(encoded);
  }

  finish(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

export class ByteReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.offset >= this.buffer.length) throw new RangeError('record ends inside a number');
      const byte = this.buffer[this.offset++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  bytes(n: number): Buffer {
    if (this.offset + n > this.buffer.length) throw new RangeError('record ends inside a value');
    const value = this.buffer.subarray(this.offset, this.offset + n);
    this.offset += n;
    return value;
  }

  string(): string {
    return this.bytes(this.uint()).toString('utf8');
  }

  get done(): boolean {
    return this.offset === this.buffer.length;
  }
}
