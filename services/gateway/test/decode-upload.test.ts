import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { BadRequestException } from '@nestjs/common';
import type { MemoryReport } from '@memtrail/contracts';
import {
  decodeParsed,
  decodeScanned,
  decodeUpload,
  type DecodedUpload,
} from '../src/upload/decode/decode-upload.js';

// A JSON upload is read straight from its bytes when it can be (decodeScanned), else parsed
// whole (decodeParsed): both must store and answer the same, and every refusal must be the
// parsed path's.

const sample = JSON.parse(
  readFileSync(
    new URL('../../../tests/fixtures/membrowse-sample-report.json', import.meta.url),
    'utf8',
  ),
) as MemoryReport;

const sha = 'c0ffee'.padEnd(40, '0');

function envelope(report: unknown, metadata: Record<string, unknown> = {}): unknown {
  return {
    metadata: {
      git: { commit_hash: sha, base_commit_hash: 'b'.repeat(40), branch_name: 'main' },
      target_name: 'board',
      analysis_version: '1.2.9',
      ...metadata,
    },
    memory_analysis: report,
  };
}

/** A build with what real uploads hold: C++ and UTF-8 names, statics, escapes, shared addresses. */
function build(count: number): MemoryReport {
  const names = ['init', 'buf.0', '_ZN3app4mainEv', 'tâche_ü', 'say "hi"', 'a\\b', '日本'];
  return {
    ...sample,
    symbols: Array.from({ length: count }, (_, i) => ({
      name: i % 5 === 0 ? names[i % names.length]! : `fn_${i}`,
      address: 0x08000000 + 4 * Math.floor(i / 2),
      size: (i * 7) % 64,
      type: i % 3 === 0 ? 'OBJECT' : 'FUNC',
      binding: i % 4 === 0 ? 'LOCAL' : 'GLOBAL',
      section: i % 3 === 0 ? '.rodata' : '.text',
      source_file: i % 9 === 0 ? null : `/home/ci/work/fw/src/m${i % 13}.c`,
      visibility: 'DEFAULT',
    })),
  } as MemoryReport;
}

/** Everything a decoded upload carries, as comparable values. */
function comparable(decoded: DecodedUpload): unknown {
  const bytes = (view: Uint8Array | null) => view && Buffer.from(view).toString('base64');
  const { blocks } = decoded;
  return {
    ...decoded,
    header: bytes(decoded.header),
    record: bytes(decoded.record),
    blocks: {
      hashes: bytes(blocks.hashes),
      data: bytes(blocks.data),
      ends: [...blocks.ends],
      symbolCounts: [...blocks.symbolCounts],
    },
  };
}

const pythonStyle = (value: unknown) =>
  JSON.stringify(value, null, 1)
    .replace(/\n */g, ' ')
    .replace(/([[{]) /g, '$1')
    .replace(/ ([\]}])/g, '$1');

const options = { maxBytes: 64 * 1024 * 1024 };

describe('JSON uploads read from their bytes', () => {
  it.each([
    ['the MemBrowse sample report', JSON.stringify(envelope(sample))],
    ['it as Python writes JSON', pythonStyle(envelope(sample))],
    ['a 3,000-symbol build', JSON.stringify(envelope(build(3000)))],
    ['it indented', JSON.stringify(envelope(build(3000)), null, 2)],
  ])('store and answer %s exactly as when parsed whole', (_, text) => {
    const body = Buffer.from(text);
    const scanned = decodeScanned(body);
    expect(scanned).not.toBeNull();
    expect(comparable(scanned!)).toEqual(comparable(decodeParsed(body)));
  });

  it.each([
    ['an identical build', envelope(sample, { identical: true })],
    ['a failed build', envelope(sample, { build_failed: true })],
    ['a symbol the checks refuse', envelope({ ...sample, symbols: [{ name: 'x', size: 1 }] })],
    ['metadata the checks refuse', envelope(sample, { target_name: '' })],
    [
      'a size written as 4.0',
      JSON.stringify(envelope(build(20))).replace('"size":0', '"size":0.0'),
    ],
  ])('leave %s to the parsed path, with its answer', async (_, value) => {
    const body = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
    expect(decodeScanned(body)).toBeNull();
    const raw = () => ({ chunks: [Buffer.from(body)], encoding: 'identity' });
    let parsed: unknown;
    try {
      parsed = comparable(decodeParsed(body));
    } catch (error) {
      await expect(decodeUpload(raw(), options)).rejects.toThrow((error as Error).message);
      return;
    }
    expect(comparable(await decodeUpload(raw(), options))).toEqual(parsed);
  });

  it('refuses with a 400 a build whose addresses no version record can hold', async () => {
    const far = {
      ...sample,
      symbols: [...sample.symbols, { name: 'x', address: 2 ** 60, size: 2 }],
    };
    for (const text of [JSON.stringify(envelope(far)), pythonStyle(envelope(far))]) {
      const decoded = decodeUpload({ chunks: [Buffer.from(text)], encoding: 'identity' }, options);
      await expect(decoded).rejects.toBeInstanceOf(BadRequestException);
      await expect(decoded).rejects.toThrow('addresses and sizes must stay below 2^52');
    }
  });

  it('names a bad symbol as the parsed path does', async () => {
    const body = Buffer.from(
      JSON.stringify(
        envelope({ ...sample, symbols: [...sample.symbols, { name: 'x', address: -4, size: 2 }] }),
      ),
    );
    await expect(decodeUpload({ chunks: [body], encoding: 'identity' }, options)).rejects.toThrow(
      `memory_analysis.symbols[${sample.symbols.length}].address must be a non-negative integer`,
    );
  });
});
