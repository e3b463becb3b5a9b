import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { readStoredPayload } from '../src/payload.js';

describe('readStoredPayload', () => {
  it('reads back an envelope larger than one output chunk', async () => {
    const symbols = Array.from({ length: 30_000 }, (_, i) => ({
      name: `fn_${i}`,
      address: 0x0800_0000 + i * 4,
      size: i % 300,
    }));
    const envelope = {
      metadata: { target_name: 'board', git: { commit_hash: 'abcd' } },
      memory_analysis: { memory_layout: {}, symbols },
    };
    const text = JSON.stringify(envelope);
    expect(text.length).toBeGreaterThan(1 << 20);
    await expect(readStoredPayload(gzipSync(text, { level: 1 }))).resolves.toEqual(envelope);
  });

  it('rejects bytes that are not gzip-compressed JSON', async () => {
    await expect(readStoredPayload(Buffer.from('{"metadata": {}}'))).rejects.toThrow();
    await expect(readStoredPayload(gzipSync('{"metadata": '))).rejects.toThrow(SyntaxError);
  });
});
