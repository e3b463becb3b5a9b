import { describe, expect, it } from '@jest/globals';
import { unstorableValue } from '../src/ingest/clickhouse-writer.js';

const region = {
  name: 'FLASH',
  type: 'UNKNOWN',
  address: 0x0800_0000,
  limit_size: 0,
  used_size: 12,
};

describe('unstorableValue', () => {
  it('passes rows whose every value fits its column', () => {
    expect(unstorableValue('regions_v1', [region, { ...region, type: 7 }])).toBeUndefined();
  });

  it('names the table, row, column and value that does not fit', () => {
    expect(unstorableValue('regions_v1', [region, { ...region, used_size: -1 }])).toBe(
      'regions_v1 row 1: used_size -1 is not a UInt64',
    );
    expect(unstorableValue('regions_v1', [{ ...region, name: { text: 'x' } }])).toBe(
      'regions_v1 row 0: name {"text":"x"} is not a String',
    );
    expect(unstorableValue('regions_v1', [{ ...region, address: 2 ** 64 }])).toMatch(
      /address 18446744073709552000 is not a UInt64/,
    );
  });

  it('holds 32-bit columns to their range', () => {
    const symbol = {
      symbol_index: 0,
      name: 'main',
      full_name: '',
      address: 8,
      size: 4,
      type: 'FUNC',
      binding: 'GLOBAL',
      visibility: 'DEFAULT',
      section: '.text',
      region: 'FLASH',
      source_file: 'main.c',
      source_line: 2 ** 32 - 1,
      archive: '',
      object_file: 'main.o',
    };
    expect(unstorableValue('symbols_v1', [symbol])).toBeUndefined();
    expect(unstorableValue('symbols_v1', [{ ...symbol, source_line: 2 ** 32 }])).toBe(
      'symbols_v1 row 0: source_line 4294967296 is not a UInt32',
    );
  });
});
