import { gunzipSync } from 'node:zlib';
import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { ClickHouseClient, purgeStatement } from '@memtrail/clickhouse';
import { recordClickHouseInsert, ServiceMetrics } from '@memtrail/metrics';
import { decodeBlock } from '@memtrail/symbol-blocks';
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
 * Writes symbol blocks to ClickHouse. One upload's pending blocks go in one insert (chunked
 * above CHUNK_ROWS) whose deduplication token names that upload and chunk, so whichever job
 * writes them, and however often, each block is stored once; beyond the table's deduplication
 * window a retry first looks whether the upload's first block is already there (an insert is
 * all or nothing).
 */
@Injectable()
export class BlockWriter {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig) private readonly config: Pick<WorkerConfig, 'CLICKHOUSE_TOPOLOGY'>,
  ) {}

  async write(projectId: string, targetId: string, pending: PendingBlocks): Promise<number> {
    const first = pending.blocks[0];
    if (!first || (await this.holds(projectId, targetId, first.hash))) return 0;
    const rows = pending.blocks.flatMap(({ hash, data }) => {
      const block = decodeBlock(gunzipSync(data));
      return block.symbols.map((s, ordinal) => ({
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
    });
    const problem = rows.find(unstorable);
    if (problem) {
      throw new UnrecoverableError(
        `block ${problem.block_hash} of target ${targetId} has a value ClickHouse cannot store: ${JSON.stringify(problem)}`,
      );
    }
    const { reportId, version } = pending.upload;
    for (let chunk = 0; chunk * CHUNK_ROWS < rows.length; chunk++) {
      const values = rows.slice(chunk * CHUNK_ROWS, (chunk + 1) * CHUNK_ROWS);
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
            insert_deduplication_token: `blocks:${reportId}:${version}:${chunk}`,
          },
        }),
      );
    }
    return rows.length;
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
