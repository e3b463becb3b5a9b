import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { readBlocks, SqlPool } from '@memtrail/db';
import type { Block, BlockLookup, BlockSymbol } from '@memtrail/symbol-blocks';
import { QueryConfig } from '../config.js';

/** The ClickHouse table of symbol blocks (migration 0011). */
export const BLOCKS_TABLE = 'symbol_blocks_v2';

/** Block ids per ClickHouse read: about 10 KB of URL (quoted and escaped, 39 characters each). */
const HASHES_PER_QUERY = 256;

type BlockRow = [
  block_hash: string,
  ordinal: number,
  section: string,
  name: string,
  full_name: string,
  rel: string,
  size: string,
  type: string,
  binding: string,
  visibility: string,
  source_file: string,
  source_line: number,
  archive: string,
  object_file: string,
];

/** A rough size of a decoded block in memory, for the cache's byte bound. */
function weight(block: Block): number {
  let bytes = 64;
  for (const s of block.symbols) {
    bytes += 120 + 2 * (s.name.length + s.full_name.length + s.source_file.length);
  }
  return bytes;
}

/**
 * Symbol blocks by hash, read from ClickHouse — or from Postgres while the worker has not copied
 * them yet — and kept in memory. A block's content never changes (its hash is its content), and
 * consecutive builds share nearly all blocks, so once a target's blocks are here a report or diff
 * of another of its commits reads only the few blocks that commit added. Rows written twice (see
 * migration 0011) are kept once.
 */
@Injectable()
export class BlockCache {
  private readonly cache: LRUCache<string, Block>;

  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(QueryConfig) config: Pick<QueryConfig, 'QUERY_BLOCK_CACHE_MB'>,
  ) {
    this.cache = new LRUCache({
      maxSize: config.QUERY_BLOCK_CACHE_MB * 1024 * 1024,
      sizeCalculation: weight,
    });
  }

  /** The blocks of a target by hash; throws naming a block neither store holds. */
  async lookup(
    projectId: string,
    targetId: string,
    hashes: readonly string[],
  ): Promise<BlockLookup> {
    const found = new Map<string, Block>();
    const missing: string[] = [];
    for (const hash of new Set(hashes)) {
      const block = this.cache.get(`${targetId}/${hash}`);
      if (block) found.set(hash, block);
      else missing.push(hash);
    }
    if (missing.length > 0) {
      const read = await this.read(projectId, targetId, missing);
      // Blocks the worker has not copied to ClickHouse yet: from Postgres, which holds them all.
      const waiting = missing.filter((hash) => !read.has(hash));
      if (waiting.length > 0) {
        for (const [hash, block] of await readBlocks(this.sql, targetId, waiting))
          read.set(hash, block);
      }
      for (const [hash, block] of read) {
        found.set(hash, block);
        this.cache.set(`${targetId}/${hash}`, block);
      }
    }
    return (hash) => {
      const block = found.get(hash);
      if (!block)
        throw new Error(`symbol block ${hash} of target ${targetId} is not in ClickHouse`);
      return block;
    };
  }

  private async read(
    projectId: string,
    targetId: string,
    hashes: string[],
  ): Promise<Map<string, Block>> {
    // Query parameters travel in the URL, which ClickHouse refuses beyond about 16 KB (431):
    // a 40k-symbol report has over a thousand blocks, so they are asked for in slices.
    const slices: string[][] = [];
    for (let i = 0; i < hashes.length; i += HASHES_PER_QUERY)
      slices.push(hashes.slice(i, i + HASHES_PER_QUERY));
    const reads = await Promise.all(
      slices.map((slice) => this.readSlice(projectId, targetId, slice)),
    );
    return new Map(reads.flatMap((read) => [...read]));
  }

  private async readSlice(
    projectId: string,
    targetId: string,
    hashes: string[],
  ): Promise<Map<string, Block>> {
    const result = await this.clickhouse.query({
      query: `SELECT block_hash, ordinal, section, name, full_name, rel, size, type, binding,
                     visibility, source_file, source_line, archive, object_file
              FROM ${BLOCKS_TABLE}
              WHERE project_id = {projectId:String} AND target_id = {targetId:String}
                AND block_hash IN {hashes:Array(String)}`,
      query_params: { projectId, targetId, hashes },
      // UInt64 values come quoted (no per-query setting: each costs the server a round of SETs).
      format: 'JSONCompactEachRow',
    });
    const rows = await result.json<BlockRow>();
    const blocks = new Map<string, { section: string; symbols: (BlockSymbol | undefined)[] }>();
    for (const r of rows) {
      let block = blocks.get(r[0]);
      if (!block) blocks.set(r[0], (block = { section: r[2], symbols: [] }));
      block.symbols[r[1]] = {
        name: r[3],
        full_name: r[4],
        rel: Number(r[5]),
        size: Number(r[6]),
        type: r[7],
        binding: r[8],
        visibility: r[9],
        source_file: r[10],
        source_line: r[11],
        archive: r[12],
        object_file: r[13],
      };
    }
    const read = new Map<string, Block>();
    for (const [hash, block] of blocks) {
      // Ordinals are dense from 0: a gap means rows are missing, never a smaller block.
      let complete = true;
      for (let i = 0; i < block.symbols.length; i++) complete &&= block.symbols[i] !== undefined;
      if (!complete) {
        throw new Error(`symbol block ${hash} of target ${targetId} is incomplete in ClickHouse`);
      }
      read.set(hash, block as Block);
    }
    return read;
  }
}
