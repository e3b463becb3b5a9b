import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import type { RowContext } from './rows.js';

export const INGEST_TABLES = ['regions_v1', 'sections_v1', 'symbols_v1'] as const;
export type IngestTable = (typeof INGEST_TABLES)[number];

/**
 * Every table holding a report's rows: the ones written here plus those the materialized views
 * fill from symbols_v1 (per-file sizes, per-section bytes). Cleanups must reach all of them.
 */
const REPORT_TABLES = [...INGEST_TABLES, 'file_sizes_v1', 'section_bytes_v1'] as const;

/** Rows per insert: large enough for ClickHouse, small enough to bound worker memory. */
export const CHUNK_ROWS = 50_000;

/** Columns every row of a report carries, in the order they are sent. */
const CONTEXT_COLUMNS = [
  'project_id',
  'target_id',
  'report_id',
  'commit_sha',
  'commit_time',
  'ingest_version',
] as const;

/** Each table's own columns, in the order they are sent after the context columns. */
const TABLE_COLUMNS: Record<IngestTable, readonly string[]> = {
  regions_v1: ['name', 'type', 'address', 'limit_size', 'used_size'],
  sections_v1: ['region', 'name', 'address', 'size', 'type'],
  symbols_v1: [
    'symbol_index',
    'name',
    'full_name',
    'address',
    'size',
    'type',
    'binding',
    'visibility',
    'section',
    'region',
    'source_file',
    'source_line',
    'archive',
    'object_file',
  ],
};

/**
 * Writes one report version's rows. Each chunk carries a deduplication token made of the
 * report, its version, the table and the chunk's position, so a job that is retried after a
 * crash writes every row exactly once.
 */
@Injectable()
export class ClickHouseWriter {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  /**
   * Rows are sent as JSON arrays with an explicit column list (JSONCompactEachRow): without the
   * key names the body is half the size and ClickHouse parses it markedly faster.
   */
  async insert(
    table: IngestTable,
    context: RowContext,
    rows: Record<string, unknown>[],
  ): Promise<number> {
    const own = TABLE_COLUMNS[table];
    const shared = CONTEXT_COLUMNS.map((column) => context[column]);
    for (let start = 0, chunk = 0; start < rows.length; start += CHUNK_ROWS, chunk++) {
      const values = rows
        .slice(start, start + CHUNK_ROWS)
        .map((row) => [...shared, ...own.map((column) => row[column])]);
      await this.clickhouse.insert({
        table,
        values,
        columns: [...CONTEXT_COLUMNS, ...own] as [string, ...string[]],
        format: 'JSONCompactEachRow',
        clickhouse_settings: {
          // Deduplication by token needs synchronous inserts on a real server.
          async_insert: 0,
          insert_deduplication_token: `${context.report_id}:v${context.ingest_version}:${table}:${chunk}`,
        },
      });
    }
    return rows.length;
  }

  /** Rows of one report version, for copying a parent's rows to an identical child. */
  async read(
    table: IngestTable,
    reportId: string,
    version: number,
  ): Promise<Record<string, unknown>[]> {
    const result = await this.clickhouse.query({
      query: `SELECT * FROM ${table} WHERE report_id = {reportId:String} AND ingest_version = {version:UInt64}`,
      query_params: { reportId, version },
      format: 'JSONEachRow',
    });
    return result.json<Record<string, unknown>>();
  }

  /** Drops the rows of versions older than `version` once that version is readable. */
  async deleteOlder(reportId: string, version: number): Promise<void> {
    for (const table of REPORT_TABLES) {
      await this.clickhouse.command({
        query: `DELETE FROM ${table} WHERE report_id = {reportId:String} AND ingest_version < {version:UInt64}`,
        query_params: { reportId, version },
      });
    }
  }

  /** Every row of a deleted project, in every table. */
  async deleteProject(projectId: string): Promise<void> {
    for (const table of REPORT_TABLES) {
      await this.clickhouse.command({
        query: `DELETE FROM ${table} WHERE project_id = {projectId:String}`,
        query_params: { projectId },
      });
    }
  }
}
