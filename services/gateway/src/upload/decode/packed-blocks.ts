import { HASH_BYTES } from '@memtrail/symbol-blocks';

/**
 * Blocks packed for a cheap hand-over between threads: block i has hash
 * `hashes[16i … 16i+16)` and canonical bytes `data[ends[i-1] … ends[i])`.
 */
export interface PackedBlocks {
  hashes: Uint8Array;
  data: Uint8Array;
  ends: Uint32Array;
}

/** Packs blocks given by their hashes (16 bytes) and canonical bytes. */
export function packBlocks(
  blocks: readonly { hash: Uint8Array; data: Uint8Array }[],
): PackedBlocks {
  const hashes = Buffer.alloc(blocks.length * HASH_BYTES);
  const ends = new Uint32Array(blocks.length);
  let end = 0;
  blocks.forEach((b, i) => {
    hashes.set(b.hash, i * HASH_BYTES);
    ends[i] = end += b.data.length;
  });
  const data = Buffer.concat(
    blocks.map((b) => b.data),
    end,
  );
  return { hashes, data, ends };
}

/** Block i of packed blocks: its hash and canonical bytes (views, not copies). */
export function packedBlock(blocks: PackedBlocks, i: number): { hash: Buffer; data: Buffer } {
  const start = i === 0 ? 0 : blocks.ends[i - 1]!;
  return {
    hash: hashView(blocks, i),
    data: Buffer.from(blocks.data.buffer, blocks.data.byteOffset + start, blocks.ends[i]! - start),
  };
}

/** Every block of packed blocks, in order. */
export function unpackBlocks(blocks: PackedBlocks): { hash: Buffer; data: Buffer }[] {
  return Array.from({ length: blocks.ends.length }, (_, i) => packedBlock(blocks, i));
}

/** Block i's hash, hex. */
export function packedHash(blocks: PackedBlocks, i: number): string {
  return hashView(blocks, i).toString('hex');
}

function hashView(blocks: PackedBlocks, i: number): Buffer {
  return Buffer.from(blocks.hashes.buffer, blocks.hashes.byteOffset + i * HASH_BYTES, HASH_BYTES);
}
