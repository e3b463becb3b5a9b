import { describe, expect, it } from '@jest/globals';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  BlockUploadError,
  decodeBlockUpload,
  decodeRecord,
  encodeBlockUpload,
  storedForm,
  writeBlockUpload,
} from '@memtrail/symbol-blocks';

const envelope = {
  metadata: { git: { commit_hash: 'a'.repeat(40) }, target_name: 't' },
  memory_analysis: {
    file_path: 'fw.elf',
    memory_layout: {
      FLASH: { address: 0, limit_size: 4096, used_size: 64, free_size: 4032, type: 'UNKNOWN' },
    },
    symbols: Array.from({ length: 300 }, (_, i) => ({
      name: `f${i}`,
      address: i * 8,
      size: 8,
      type: 'FUNC',
      section: '.text',
      source_file: `src/${i % 7}.c`,
    })),
  },
} as unknown as UploadEnvelope;

describe('uploads in block form', () => {
  it('carries the header, record and blocks the server would store for the JSON upload', () => {
    const form = decodeBlockUpload(encodeBlockUpload(envelope));
    const stored = storedForm(envelope, 'full');
    expect(form.header).toEqual({
      ...envelope,
      memory_analysis: { ...envelope.memory_analysis, symbols: [] },
    });
    expect(decodeRecord(form.record)).toEqual(decodeRecord(stored.record!));
    expect(
      form.blocks.map((b) => [Buffer.from(b.hash).toString('hex'), Buffer.from(b.data)]),
    ).toEqual(stored.blocks.map((b) => [b.hash, b.canonical]));
    expect(writeBlockUpload(form)).toEqual(encodeBlockUpload(envelope));
  });

  it('names what is wrong with bytes that are not a whole upload in block form', () => {
    const body = encodeBlockUpload(envelope);
    const problem = (bytes: Buffer) => {
      try {
        decodeBlockUpload(bytes);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(BlockUploadError);
        return (error as Error).message;
      }
    };
    expect(problem(Buffer.from('{"metadata":{}}'))).toMatch(/^body is not in block form/);
    expect(problem(body.subarray(0, body.length - 1))).toBe('body ends inside a part');
    expect(problem(Buffer.concat([body, Buffer.from([0])]))).toBe(
      'body has bytes after its last block',
    );
    const badHeader = Buffer.from(body);
    badHeader[body.indexOf('{')] = 0x5b; // '[' where the header's JSON opens its object
    expect(problem(badHeader)).toMatch(/^header is not valid JSON/);
    badHeader[body.indexOf('{')] = 0xff;
    expect(problem(badHeader)).toBe('header is not valid UTF-8');
  });
});
