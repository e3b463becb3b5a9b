/**
 * Rows in ClickHouse's TabSeparated text format, the cheapest text input for both ends here:
 * the worker writes fields without building per-row arrays or JSON, and ClickHouse parses
 * TabSeparated faster than JSON (no quoting, no key or bracket tokens).
 */

/** Characters TabSeparated gives a meaning to inside a field; each is sent escaped. */
const SPECIAL = /[\\\t\n\r\0]/;
const SPECIAL_ALL = /[\\\t\n\r\0]/g;
const ESCAPED: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\\0',
};

/**
 * One field. Strings are escaped; numbers are written as integers or decimals (UInt64 values
 * read back from ClickHouse arrive as strings and stay exact); a missing value is `\N`, which
 * ClickHouse stores as the column's default, as it did for a JSON `null`.
 */
export function tabSeparatedField(value: unknown): string {
  if (typeof value === 'string') {
    return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (c) => ESCAPED[c]!) : value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} to ClickHouse`);
    return String(value);
  }
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'bigint') return value.toString();
  throw new TypeError(`cannot write a ${typeof value} field to ClickHouse`);
}

/** Rows `from` to `to` (exclusive) of `rows`, each line starting with `prefix`. */
export interface RowRange {
  prefix: string;
  rows: readonly Record<string, unknown>[];
  from: number;
  to: number;
}

/** One row as a line: `prefix`, then the columns' fields separated by tabs. */
export type LineEncoder = (prefix: string, row: Record<string, unknown>) => string;

/**
 * The line encoder of one column list. It is compiled so that each column is read with a named
 * property load: a loop over the column names made every read a keyed lookup, which V8 turns
 * into a dictionary probe once it has seen the rows of several tables. With the gathered writes
 * below, a 10k-symbol report encodes in about 30 % less CPU (docs/benchmarks.md).
 */
export function lineEncoder(columns: readonly string[]): LineEncoder {
  const fields = columns.map((c) => `field(row[${JSON.stringify(c)}])`).join(" + '\\t' + ");
  const compile = new Function('field', `return (prefix, row) => prefix + ${fields} + '\\n';`);
  return compile(tabSeparatedField) as LineEncoder;
}

/** Lines are gathered into strings of about this many characters, then written as one. */
const WRITE_CHARS = 16_384;

/**
 * The ranges' rows as one TabSeparated body. Lines are joined into short strings that are
 * written to the buffer as they fill: one write per line costs more, and one string for the
 * whole body costs about three times as much (V8 flattens a rope of a megabyte or more).
 */
export function tabSeparatedBody(encode: LineEncoder, ranges: readonly RowRange[]): Buffer {
  const rowCount = ranges.reduce((n, r) => n + r.to - r.from, 0);
  let buffer = Buffer.allocUnsafe(Math.max(4096, rowCount * 128));
  let length = 0;
  let text = '';
  const flush = () => {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (length + text.length * 3 > buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(buffer.length * 2, length + text.length * 3));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    length += buffer.write(text, length, 'utf8');
    text = '';
  };
  for (const { prefix, rows, from, to } of ranges) {
    for (let i = from; i < to; i++) {
      text += encode(prefix, rows[i]!);
      if (text.length >= WRITE_CHARS) flush();
    }
  }
  flush();
  return buffer.subarray(0, length);
}
