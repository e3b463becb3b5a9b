import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { ClickHouseClient, pingClickHouse, purgeStatement } from '@memtrail/clickhouse';
import { recordClickHouseInsert, ServiceMetrics } from '@memtrail/metrics';
import { decodeBlock, type Block, type BlockSymbol } from '@memtrail/symbol-blocks';
import { WorkerConfig } from '../config.js';
import type { PendingBlock } from './stored-blocks.js';

/** The one ClickHouse table of symbols: every block of a target once (migration 0011). */
export const BLOCKS_TABLE = 'symbol_blocks_v2';

/**
 * Blocks per presence check: their ids, targets and projects are query parameters, in the URL,
 * which ClickHouse refuses beyond about 16 KB; 100 keep it under 13 KB even if all differ.
 */
const BLOCKS_PER_QUERY = 100;

/** Rows per insert: large enough for ClickHouse, small enough to bound worker memory. */
const CHUNK_ROWS = 50_000;

const UINT32 = 2 ** 32;

/** A row of symbol_blocks_v2: one symbol of a block, with the block's keys and section. */
type BlockRow = BlockSymbol & {
  project_id: string;
  target_id: string;
  block_hash: string;
  ordinal: number;
  section: string;
};

/**
 * Writes symbol blocks to ClickHouse, a batch of whole blocks per insert (chunked above
 * CHUNK_ROWS rows). Each insert's deduplication token is derived from its blocks and their
 * write attempts: a request the client repeats is stored once, and blocks written again after
 * a worker died (their attempts count on) get a token ClickHouse has not seen.
 */
@Injectable()
export class BlockWriter {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig) private readonly config: Pick<WorkerConfig, 'CLICKHOUSE_TOPOLOGY'>,
  ) {}

  /**
   * Writes the blocks; returns the symbol rows written and the blocks left out because they
   * cannot be read or stored (damaged at rest), each with the reason.
   */
  async write(
    blocks: readonly PendingBlock[],
  ): Promise<{ rows: number; refused: { block: PendingBlock; reason: string }[] }> {
    let written = 0;
    const refused: { block: PendingBlock; reason: string }[] = [];
    let chunk: PendingBlock[] = [];
    let values: BlockRow[] = [];
    const flush = async () => {
      if (chunk.length === 0) return;
      await this.insert(values, token(chunk));
      written += values.length;
      chunk = [];
      values = [];
    };
    for (const block of blocks) {
      let rows: BlockRow[];
      try {
        rows = blockRows(block);
      } catch (error) {
        refused.push({ block, reason: (error as Error).message });
        continue;
      }
      if (values.length + rows.length > CHUNK_ROWS) await flush();
      chunk.push(block);
      values.push(...rows);
    }
    await flush();
    return { rows: written, refused };
  }

  private async insert(values: BlockRow[], token: string): Promise<void> {
    await recordClickHouseInsert(this.metrics, BLOCKS_TABLE, values.length, () =>
      this.clickhouse.insert({
        table: BLOCKS_TABLE,
        values,
        format: 'JSONEachRow',
        clickhouse_settings: {
          insert_deduplication_token: token,
          // Deduplication by token needs synchronous inserts on a real server, and on a cluster
          // the Distributed table must pass the insert on before answering.
          ...(this.config.CLICKHOUSE_TOPOLOGY === 'cluster'
            ? { async_insert: 0, distributed_foreground_insert: 1 }
            : {}),
        },
      }),
    );
  }

  /** Throws, saying why, while ClickHouse cannot be reached. */
  reachable(): Promise<void> {
    return pingClickHouse(this.clickhouse);
  }

  /** The blocks ClickHouse holds already, as `targetId/hash` (whole: an insert is all or nothing). */
  async present(blocks: readonly PendingBlock[]): Promise<Set<string>> {
    // Query parameters travel in the URL, which ClickHouse refuses beyond about 16 KB (431).
    const slices: PendingBlock[][] = [];
    for (let i = 0; i < blocks.length; i += BLOCKS_PER_QUERY)
      slices.push(blocks.slice(i, i + BLOCKS_PER_QUERY));
    const found = await Promise.all(slices.map((slice) => this.presentSlice(slice)));
    return new Set(found.flatMap((set) => [...set]));
  }

  private async presentSlice(blocks: readonly PendingBlock[]): Promise<Set<string>> {
    if (blocks.length === 0) return new Set();
    const wanted = new Set(blocks.map((b) => `${b.targetId}/${b.hash}`));
    // Targets × hashes is a superset of the pairs asked for; the rows not asked for are dropped.
    const result = await this.clickhouse.query({
      query: `SELECT DISTINCT target_id, block_hash FROM ${BLOCKS_TABLE}
              WHERE project_id IN {projects:Array(String)} AND target_id IN {targets:Array(String)}
                AND block_hash IN {hashes:Array(String)}`,
      query_params: {
        projects: [...new Set(blocks.map((b) => b.projectId))],
        targets: [...new Set(blocks.map((b) => b.targetId))],
        hashes: [...new Set(blocks.map((b) => b.hash))],
      },
      format: 'JSONEachRow',
    });
    const rows = await result.json<{ target_id: string; block_hash: string }>();
    return new Set(rows.map((r) => `${r.target_id}/${r.block_hash}`).filter((k) => wanted.has(k)));
  }

  /**
   * Every row of a deleted project, its projections included; returns once every replica has
   * applied the deletion. The id is a UUID (Postgres checked it); anything else is refused
   * rather than quoted into the statement.
   */
  async deleteProject(projectId: string): Promise<void> {
    if (!/^[0-9a-f-]{36}$/i.test(projectId))
      throw new UnrecoverableError(`not a project id: ${projectId}`);
    await this.clickhouse.command({
      query: purgeStatement(
        this.config.CLICKHOUSE_TOPOLOGY,
        BLOCKS_TABLE,
        `project_id = '${projectId}'`,
      ),
      clickhouse_settings: { mutations_sync: '2' },
    });
  }
}

/** A batch's token: its blocks and how often each was tried, so a new attempt is a new token. */
function token(blocks: readonly PendingBlock[]): string {
  const hash = createHash('sha256');
  for (const b of blocks) hash.update(`${b.targetId}/${b.hash}/${b.writeAttempts}\n`);
  return `blocks:${hash.digest('hex')}`;
}

/** A stored block's ClickHouse rows; a block that cannot be read or stored fails loudly. */
function blockRows(pending: PendingBlock): BlockRow[] {
  const { projectId, targetId, hash } = pending;
  let block: Block;
  try {
    block = decodeBlock(gunzipSync(pending.data));
  } catch (error) {
    throw new Error(
      `block ${hash} of target ${targetId}: stored block is unreadable: ${(error as Error).message}`,
    );
  }
  const rows = block.symbols.map((s, ordinal) => ({
    project_id: projectId,
    target_id: targetId,
    block_hash: hash,
    ordinal,
    name: s.name,
    full_name: s.full_name,
    rel: s.rel,
    size: s.size,
    type: s.type,
    binding: s.binding,
    visibility: s.visibility,
    section: block.section,
    source_file: s.source_file,
    source_line: s.source_line,
    archive: s.archive,
    object_file: s.object_file,
  }));
  const problem = rows.find(unstorable);
  if (problem) {
    throw new Error(
      `block ${hash} of target ${targetId} has a value ClickHouse cannot store: ${JSON.stringify(problem)}`,
    );
  }
  return rows;
}

/** A row with a value its column cannot hold (the upload checks these; a guard for old data). */
function unstorable(row: BlockRow): boolean {
  return !(
    Number.isSafeInteger(row.rel) &&
    row.rel >= 0 &&
    Number.isSafeInteger(row.size) &&
    row.size >= 0 &&
    Number.isInteger(row.source_line) &&
    row.source_line >= 0 &&
    row.source_line < UINT32
  );
}
