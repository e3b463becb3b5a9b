import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { MemoryReport, UploadEnvelope } from '@memtrail/contracts';
import {
  decodeBlock,
  decodeRecord,
  encodeBlockUpload,
  reportSymbols,
  type Block,
} from '@memtrail/symbol-blocks';
import { DecodePool } from '../src/upload/decode/decode-pool.js';
import { ServiceUnavailableException } from '../src/http/retry-later.js';
import type { DecodedUpload } from '../src/upload/decode/decode-upload.js';
import { packBlocks, packedBlock, unpackBlocks } from '../src/upload/decode/packed-blocks.js';

// The threads run the compiled gateway (worker threads cannot load TypeScript sources), so this
// test needs `npm run build` first, as the test command does.
const script = fileURLToPath(new URL('../dist/upload/decode/decode-thread.js', import.meta.url));

const sample = JSON.parse(
  readFileSync(
    new URL('../../../tests/fixtures/membrowse-sample-report.json', import.meta.url),
    'utf8',
  ),
) as MemoryReport;

function envelope(commit: string, extra: Record<string, unknown> = {}): UploadEnvelope {
  return {
    metadata: {
      git: { commit_hash: commit, base_commit_hash: null, branch_name: 'main' },
      target_name: 'board-a',
      ...extra,
    },
    memory_analysis: sample,
  } as UploadEnvelope;
}

const gzipped = (value: unknown) => gzipSync(JSON.stringify(value));

/** The stored form of a decoded upload read back: its header, and its symbols from the blocks. */
function storedEnvelope(decoded: DecodedUpload): UploadEnvelope {
  const header = JSON.parse(gunzipSync(decoded.header).toString()) as UploadEnvelope;
  const blocks = new Map<string, Block>();
  for (let i = 0; i < decoded.blocks.symbolCounts.length; i++) {
    const { hash, data } = packedBlock(decoded.blocks, i);
    blocks.set(hash.toString('hex'), decodeBlock(data));
  }
  const symbols = reportSymbols(decodeRecord(decoded.record!), (hash) => blocks.get(hash)!);
  return {
    ...header,
    memory_analysis: {
      ...header.memory_analysis,
      symbols: symbols.map(({ name, address, size }) => ({ name, address, size })) as never,
    },
  };
}

/** The upload with only what storedEnvelope compares of each symbol, in address order. */
function comparable(value: UploadEnvelope): UploadEnvelope {
  const symbols = [...value.memory_analysis.symbols]
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.address - b.s.address || a.i - b.i)
    .map(({ s: { name, address, size } }) => ({ name, address, size }));
  return { ...value, memory_analysis: { ...value.memory_analysis, symbols: symbols as never } };
}
const sha = (n: number) => n.toString(16).padStart(40, '0');

describe('DecodePool on worker threads', () => {
  let pool: DecodePool;
  const timed: [string, number][] = [];

  beforeAll(() => {
    if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build first`);
    const observe = (phase: string, seconds: number) => void timed.push([phase, seconds]);
    pool = new DecodePool(2, { maxBytes: 1024 * 1024 }, { script, observe });
  });

  afterAll(() => pool?.onApplicationShutdown());

  it('runs on threads and hands back metadata, totals and the stored gzip, not the symbols', async () => {
    expect(pool.size).toBe(2);
    const body = gzipped(envelope(sha(1)));
    const decoded = await pool.decode({ chunks: [body], encoding: 'gzip' });
    expect(decoded.upload.commitSha).toBe(sha(1));
    expect(decoded.upload.targetName).toBe('board-a');
    expect(decoded.symbolCount).toBe(sample.symbols.length);
    expect(decoded.upload.report.symbols).toEqual([]);
    expect(Object.keys(decoded.totals.regions).sort()).toEqual(
      Object.keys(sample.memory_layout).sort(),
    );
    // Stored: the envelope without its symbols, and the symbols as blocks.
    expect(storedEnvelope(decoded)).toEqual(comparable(envelope(sha(1))));
    // Timed: the wait for a thread and the work on it, once each.
    expect(timed.map(([phase]) => phase).sort()).toEqual(['decode', 'decode_wait']);
    for (const [, seconds] of timed) expect(seconds).toBeGreaterThanOrEqual(0);
    expect(timed.find(([phase]) => phase === 'decode')![1]).toBeGreaterThan(0);
  });

  it('moves a plain JSON body to the thread and its stored form back', async () => {
    const json = Buffer.from(JSON.stringify(envelope(sha(2))));
    const decoded = await pool.decode({ chunks: [json], encoding: 'identity' });
    expect(storedEnvelope(decoded)).toEqual(comparable(envelope(sha(2))));
    // The body was moved to the thread, not copied.
    expect(json.byteLength).toBe(0);
  });

  it('moves a body read in chunks to the thread, which joins them', async () => {
    const chunked = (bytes: Buffer) =>
      Array.from(
        { length: Math.ceil(bytes.length / 1000) },
        // Each chunk owns its memory, as those an HTTP request's body arrives in.
        (_, i) => new Uint8Array(bytes.subarray(i * 1000, (i + 1) * 1000)),
      );
    const json = chunked(Buffer.from(JSON.stringify(envelope(sha(5)))));
    expect(json.length).toBeGreaterThan(2);
    const decoded = await pool.decode({ chunks: json, encoding: 'identity' });
    expect(storedEnvelope(decoded)).toEqual(comparable(envelope(sha(5))));
    expect(json.every((chunk) => chunk.byteLength === 0)).toBe(true);
    const gzip = chunked(gzipped(envelope(sha(6))));
    const unzipped = await pool.decode({ chunks: gzip, encoding: 'gzip' });
    expect(storedEnvelope(unzipped)).toEqual(comparable(envelope(sha(6))));
    await expect(pool.decode({ chunks: [], encoding: 'identity' })).rejects.toThrow(
      'Request body is empty',
    );
  });

  it('rejects bad bodies with the same 4xx as on the event loop', async () => {
    const bad = pool.decode({
      chunks: [gzipped({ metadata: { git: { commit_hash: sha(3) }, target_name: 'x' } })],
      encoding: 'gzip',
    });
    await expect(bad).rejects.toBeInstanceOf(BadRequestException);
    await expect(bad).rejects.toThrow('memory_analysis is required');
    await expect(
      pool.decode({ chunks: [Buffer.from('not gzip')], encoding: 'gzip' }),
    ).rejects.toThrow('Request body is not valid gzip');
    await expect(
      pool.decode({ chunks: [gzipSync(Buffer.alloc(2 * 1024 * 1024, 32))], encoding: 'gzip' }),
    ).rejects.toBeInstanceOf(PayloadTooLargeException);
  });

  it('reads an upload in block form, then checks the blocks its target lacks on a thread', async () => {
    // Enough blocks for the check to go to a thread (a typical commit's few are checked inline).
    const large = envelope(sha(4));
    large.memory_analysis = {
      ...sample,
      symbols: Array.from({ length: 4000 }, (_, i) => ({
        ...sample.symbols[0]!,
        name: `fn_${i}`,
        address: sample.symbols[0]!.address + 8 * i,
        size: 8,
      })),
    };
    const body = gzipSync(encodeBlockUpload(large));
    const decoded = await pool.decode({ chunks: [body], encoding: 'gzip', blockForm: true });
    expect(decoded.upload.commitSha).toBe(sha(4));
    expect(decoded.symbolCount).toBe(4000);
    const record = decoded.sentRecord!;
    const blocks = unpackBlocks(decoded.blocks);
    expect(blocks.length).toBeGreaterThan(64);
    const counts = await pool.check({ record, sent: packBlocks(blocks), held: new Map() });
    expect(counts).toEqual(blocks.map((b) => decodeBlock(b.data).symbols.length));
    // A block with a byte changed is refused as the event loop would refuse it.
    const changed = Buffer.from(blocks[7]!.data);
    changed[changed.length - 3] = changed[changed.length - 3]! ^ 1;
    const tampered = pool.check({
      record,
      sent: packBlocks(blocks.map((b, i) => (i === 7 ? { hash: b.hash, data: changed } : b))),
      held: new Map(),
    });
    await expect(tampered).rejects.toBeInstanceOf(BadRequestException);
    await expect(tampered).rejects.toThrow('does not match its hash');
  });

  it('decodes many uploads at once, each to its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        pool.decode({ chunks: [gzipped(envelope(sha(100 + i)))], encoding: 'gzip' }),
      ),
    );
    expect(results.map((r) => r.upload.commitSha)).toEqual(
      Array.from({ length: 12 }, (_, i) => sha(100 + i)),
    );
  });
});

describe('DecodePool with a bounded queue', () => {
  const pool = new DecodePool(1, { maxBytes: 1024 * 1024 }, { script, maxQueue: 2 });

  afterAll(() => pool.onApplicationShutdown());

  it('answers 503 with Retry-After to uploads beyond the queue, and decodes the others', async () => {
    // Its thread is up once it decoded something.
    await pool.decode({ chunks: [gzipped(envelope(sha(199)))], encoding: 'gzip' });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        pool.decode({ chunks: [gzipped(envelope(sha(200 + i)))], encoding: 'gzip' }),
      ),
    );
    const refused = outcomes.filter((o) => o.status === 'rejected');
    // One running, two waiting: the other five never wait in memory.
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const outcome of refused) {
      const reason = (outcome as PromiseRejectedResult).reason as ServiceUnavailableException;
      expect(reason).toBeInstanceOf(ServiceUnavailableException);
      expect(reason.getStatus()).toBe(503);
      expect(reason.retryAfterS).toBeGreaterThan(0);
    }
  });
});

describe('DecodePool without threads', () => {
  const pool = new DecodePool(0, { maxBytes: 1024 * 1024 });

  it('decodes on the event loop: a plain JSON body is split for storage, a bad one refused', async () => {
    expect(pool.size).toBe(0);
    const text = JSON.stringify(envelope(sha(4)));
    const decoded = await pool.decode({ chunks: [Buffer.from(text)], encoding: 'identity' });
    expect(decoded.upload.commitSha).toBe(sha(4));
    expect(storedEnvelope(decoded)).toEqual(comparable(envelope(sha(4))));
    await expect(
      pool.decode({ chunks: [Buffer.from('{"metadata": ')], encoding: 'identity' }),
    ).rejects.toThrow('Request body is not valid JSON');
    await expect(
      pool.decode({ chunks: [Buffer.from(JSON.stringify({ metadata: {} }))], encoding: '' }),
    ).rejects.toBeInstanceOf(BadRequestException);
  });
});
