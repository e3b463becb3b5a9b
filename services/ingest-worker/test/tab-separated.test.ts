import { describe, expect, it } from '@jest/globals';
import { tabSeparatedField, tabSeparatedRows } from '../src/ingest/tab-separated.js';

describe('tabSeparatedRows', () => {
  it('writes the prefix and each row, escaping what TabSeparated gives a meaning to', () => {
    const rows = [
      { name: 'plain', size: 4, file: null },
      { name: 'tab\there\nnew\\line\r\0', size: 18446744073709551615n, file: 'ü€🙂' },
    ];
    expect(tabSeparatedRows('7\t', rows, ['name', 'size', 'file'], 0, 2).toString('utf8')).toBe(
      '7\tplain\t4\t\\N\n' + '7\ttab\\there\\nnew\\\\line\\r\\0\t18446744073709551615\tü€🙂\n',
    );
  });

  it('writes only rows from..to, and grows past its first estimate with multi-byte text', () => {
    const long = '€'.repeat(50_000);
    const rows = [{ a: 'skipped' }, { a: long }, { a: 'x' }, { a: 'skipped' }];
    const body = tabSeparatedRows('', rows, ['a'], 1, 3);
    expect(body.toString('utf8')).toBe(`${long}\nx\n`);
    expect(body.length).toBe(Buffer.byteLength(long) + 3);
  });

  it('refuses values ClickHouse could not read back', () => {
    expect(() => tabSeparatedField(Number.NaN)).toThrow('cannot write NaN');
    expect(() => tabSeparatedField({})).toThrow('cannot write a object field');
  });
});
