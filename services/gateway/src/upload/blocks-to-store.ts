import { gzipSync } from 'node:zlib';
import type { Queryable } from '@memtrail/db';
import { HASH_BYTES, type VersionRecord } from '@memtrail/symbol-blocks';
import type { DecodedUpload } from './decode/decode-upload.js';
import type { DecodePool } from './decode/decode-pool.js';
import {
  packBlocks,
  packedBlock,
  packedHash,
  unpackBlocks,
  type PackedBlocks,
} from './decode/packed-blocks.js';
import type { KnownVersion } from './known-versions.js';

/** Blocks of an upload to insert: hashes, gzip data and symbol counts, index by index. */
export interface NewBlocks {
  hashes: Buffer[];
  data: Buffer[];
  symbols: number[];
}

export interface BlocksToStore {
  blocks: NewBlocks;
  /** Symbol count of every block the upload's record places, to remember with its version. */
  symbols: Map<string, number>;
}

interface Block {
  hash: Buffer;
  data: Buffer;
}

/**
 * The blocks of an upload its target does not hold yet, compressed, found in the target's
 * transaction. The parent's blocks are held (a version is stored with its blocks): a typical
 * commit is told apart from its parent without asking Postgres about each of its blocks when
 * the parent's counts are known; otherwise the target's blocks are looked up. A block-form
 * upload's lacking blocks are checked first (DecodePool.check).
 */
export async function blocksToStore(
  db: Queryable,
  decoder: DecodePool,
  targetId: string,
  { blocks, sentRecord }: DecodedUpload,
  parent: KnownVersion | null,
): Promise<BlocksToStore> {
  if (sentRecord) return sentBlocks(db, decoder, targetId, sentRecord, blocks, parent);
  const all = unpackBlocks(blocks);
  const hashes = all.map((_, i) => packedHash(blocks, i));
  const symbols = new Map(hashes.map((h, i) => [h, blocks.symbolCounts[i]!]));
  const held = parent
    ? new Set(parent.record.entries.map((e) => e.hash))
    : await heldCounts(db, targetId, hashes);
  const lacking = all.filter((_, i) => !held.has(hashes[i]!));
  return { blocks: await compressed(lacking, symbols), symbols };
}

/** A block-form upload: the blocks its record places that the target lacks, checked. */
async function sentBlocks(
  db: Queryable,
  decoder: DecodePool,
  targetId: string,
  record: VersionRecord,
  sent: PackedBlocks,
  parent: KnownVersion | null,
): Promise<BlocksToStore> {
  const placed = [...new Set(record.entries.map((e) => e.hash))];
  // Sent blocks by hash; views on the bytes of only the few that are checked.
  const sentAt = new Map<string, number>();
  for (let i = 0; i < sent.ends.length; i++) sentAt.set(packedHash(sent, i), i);
  let held = new Map<string, number>();
  if (parent?.symbols) {
    for (const h of placed) {
      const n = parent.symbols.get(h);
      if (n !== undefined) held.set(h, n);
    }
    // Blocks left out of the upload must be held: only those are asked for.
    const unsent = placed.filter((h) => !held.has(h) && !sentAt.has(h));
    for (const [h, n] of await heldCounts(db, targetId, unsent)) held.set(h, n);
  } else {
    held = await heldCounts(db, targetId, placed);
  }
  const lacking = placed
    .filter((h) => !held.has(h) && sentAt.has(h))
    .map((h) => packedBlock(sent, sentAt.get(h)!));
  const counts = await decoder.check({ record, sent: packBlocks(lacking), held });
  lacking.forEach((b, i) => held.set(b.hash.toString('hex'), counts[i]!));
  return { blocks: await compressed(lacking, held), symbols: held };
}

/**
 * Which of these blocks (hex hashes) the target holds, with their symbol counts. The hashes go
 * as one bytea and the answer as indexes: an array of bytea costs both sides a text encoding of
 * every hash (measured: 2.4 against 1.3 ms for a 10k-symbol report's 420 blocks, idle).
 */
async function heldCounts(
  db: Queryable,
  targetId: string,
  hashes: readonly string[],
): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (hashes.length === 0) return held;
  const { rows } = await db.query<{ i: number; symbol_count: number }>(
    `SELECT i, b.symbol_count
     FROM generate_series(0, length($2::bytea) / ${HASH_BYTES} - 1) i
     JOIN symbol_blocks b
       ON b.target_id = $1 AND b.hash = substring($2::bytea FROM i * ${HASH_BYTES} + 1 FOR ${HASH_BYTES})`,
    [targetId, Buffer.from(hashes.join(''), 'hex')],
  );
  for (const row of rows) held.set(hashes[row.i]!, row.symbol_count);
  return held;
}

/** Blocks compressed between two turns of the event loop: about 3 ms of work. */
const BLOCKS_PER_TURN = 64;

/**
 * Compresses blocks with the synchronous zlib call, a slice per turn of the event loop (a
 * target's first upload compresses thousands). A block is a few KB: zlib's asynchronous API
 * spends more of the main thread's CPU per call (a stream, its callbacks) than compressing it
 * takes (measured: 41-45 against 49-50 ms of gateway CPU per 10k-symbol upload).
 */
async function compressed(
  blocks: Block[],
  symbols: ReadonlyMap<string, number>,
): Promise<NewBlocks> {
  const data: Buffer[] = [];
  for (let i = 0; i < blocks.length; i += BLOCKS_PER_TURN) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const b of blocks.slice(i, i + BLOCKS_PER_TURN)) data.push(gzipSync(b.data, { level: 6 }));
  }
  return {
    hashes: blocks.map((b) => b.hash),
    data,
    symbols: blocks.map((b) => symbols.get(b.hash.toString('hex'))!),
  };
}
