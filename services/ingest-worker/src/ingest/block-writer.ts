import { gunzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { ClickHouseClient, purgeStatement } from '@memtrail/clickhouse';
import { recordClickHouseInsert, ServiceMetrics } from '@memtrail/metrics';
import { decodeBlock, type Block } from '@memtrail/symbol-blocks';
import { WorkerConfig } from '../config.js';
import type { PendingBlocks } from './stored-reports.js';

/** The one ClickHouse table of symbols: every block of a target once (migration 0011). */
export const BLOCKS_TABLE = 'symbol_blocks_v2';

/** Rows per insert: large enough for ClickHouse, small enough to bound worker memory. */
const CHUNK_ROWS = 50_000;

const UINT32 = 2 ** 32;

interface BlockRow {
  project_id: string;
  target_id: string;
  block_hash: string;
  ordinal: number;
  name: string;
  full_name: string;
  rel: number;
  size: number;
  type: string;
  binding: string;
  visibility: string;
  section: string;
  source_file: string;
  source_line: number;
  archive: string;
  object_file: string;
}

/**
 * Writes symbol blocks to ClickHouse. One upload's pending blocks go in inserts of whole blocks
 * (about CHUNK_ROWS rows each, in hash order, so the same upload always gives the same chunks)
 * whose deduplication token names that upload and chunk: whichever job writes them, and however
 * often, each block is stored once. When a write was tried before, a chunk whose first block is
 * already there is skipped (an insert is all or nothing): this holds beyond the table's
 * deduplication window too.
 */
@Injectable()
export class BlockWriter {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig) private readonly config: Pick<WorkerConfig, 'CLICKHOUSE_TOPOLOGY'>,
  ) {}

  /** Writes an upload's pending blocks; returns the symbol rows written. */
  async write(projectId: string, targetId: string, pending: PendingBlocks): Promise<number> {
    const { reportId, version } = pending.upload;
    let written = 0;
    let chunk: BlockRow[][] = [];
    let rows = 0;
    let index = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      const token = `blocks:${reportId}:${version}:${index++}`;
      const values = chunk.flat();
      const first = values[0]!.block_hash;
      chunk = [];
      rows = 0;
      // Only a write tried before may have landed (a worker that died after inserting).
      if (pending.retried && (await this.holds(projectId, targetId, first))) return;
      await this.insert(values, token);
      written += values.length;
    };
    for (const { hash, data } of pending.blocks) {
      const block = blockRows(projectId, targetId, hash, data);
      if (rows + block.length > CHUNK_ROWS) await flush();
      chunk.push(block);
      rows += block.length;
    }
    await flush();
    return written;
  }

  private async insert(values: BlockRow[], token: string): Promise<void> {
    await recordClickHouseInsert(this.metrics, BLOCKS_TABLE, values.length, () =>
      this.clickhouse.insert({
        table: BLOCKS_TABLE,
        values,
        format: 'JSONEachRow',
        clickhouse_settings: {
          // Deduplication by token needs synchronous inserts on a real server, and on a
          // cluster the Distributed table must pass the insert on before answering.
          async_insert: 0,
          distributed_foreground_insert: 1,
          insert_deduplication_token: token,
        },
      }),
    );
  }

  private async holds(projectId: string, targetId: string, hash: string): Promise<boolean> {
    const result = await this.clickhouse.query({
      query: `SELECT 1 FROM ${BLOCKS_TABLE}
              WHERE project_id = {projectId:String} AND target_id = {targetId:String}
                AND block_hash = {hash:String} LIMIT 1`,
      query_params: { projectId, targetId, hash },
      format: 'JSONEachRow',
    });
    return (await result.json()).length > 0;
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

/** A stored block's ClickHouse rows; a value its column cannot hold fails the job for good. */
function blockRows(projectId: string, targetId: string, hash: string, data: Buffer): BlockRow[] {
  let block: Block;
  try {
    block = decodeBlock(gunzipSync(data));
  } catch (error) {
    throw new UnrecoverableError(
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
    throw new UnrecoverableError(
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
