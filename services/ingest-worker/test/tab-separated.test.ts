import { describe, expect, it } from '@jest/globals';
import { lineEncoder, tabSeparatedBody, tabSeparatedField } from '../src/ingest/tab-separated.js';

describe('tabSeparatedBody', () => {
  it('writes the prefix and each row, escaping what TabSeparated gives a meaning to', () => {
    const rows = [
      { name: 'plain', size: 4, file: null },
      { name: 'tab\there\nnew\\line\r\0', size: 18446744073709551615n, file: 'ü€🙂' },
    ];
    const encode = lineEncoder(['name', 'size', 'file']);
    expect(tabSeparatedBody(encode, [{ prefix: '7\t', rows, from: 0, to: 2 }]).toString()).toBe(
      '7\tplain\t4\t\\N\n' + '7\ttab\\there\\nnew\\\\line\\r\\0\t18446744073709551615\tü€🙂\n',
    );
  });

  it('writes only rows from..to of each range, in order, and grows past its first estimate', () => {
    const long = '€'.repeat(50_000);
    const rows = [{ a: 'skipped' }, { a: long }, { a: 'x' }, { a: 'skipped' }];
    // Several flushes of gathered lines, and a body larger than the estimate of 128 bytes a row.
    const many = Array.from({ length: 300 }, (_, i) => ({ a: `row ${i} ${'x'.repeat(60)}` }));
    const body = tabSeparatedBody(lineEncoder(['a']), [
      { prefix: '1\t', rows, from: 1, to: 3 },
      { prefix: '2\t', rows: many, from: 0, to: many.length },
    ]);
    const expected = `1\t${long}\n1\tx\n` + many.map((r) => `2\t${r.a}\n`).join('');
    expect(body.toString('utf8')).toBe(expected);
    expect(body.length).toBe(Buffer.byteLength(expected));
  });

  it('reads column names that are not identifiers', () => {
    const encode = lineEncoder(["it's", 'a\\b']);
    expect(encode('', { "it's": 1, 'a\\b': 'x' })).toBe('1\tx\n');
  });

  it('refuses values ClickHouse could not read back', () => {
    expect(() => tabSeparatedField(Number.NaN)).toThrow('cannot write NaN');
    expect(() => tabSeparatedField({})).toThrow('cannot write a object field');
  });
});
