import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { ServiceMetrics } from '@memtrail/metrics';
import type { RowContext } from './rows.js';
import { dateTime64Field, tabSeparatedField, tabSeparatedRows } from './tab-separated.js';

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
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
  ) {}

  /**
   * Rows are sent as one TabSeparated body per chunk with an explicit column list; the
   * context columns, the same on every row, are encoded once.
   */
  async insert(
    table: IngestTable,
    context: RowContext,
    rows: readonly Record<string, unknown>[],
  ): Promise<number> {
    const own = TABLE_COLUMNS[table];
    const prefix = CONTEXT_COLUMNS.map((column) =>
      column === 'commit_time'
        ? dateTime64Field(context.commit_time)
        : tabSeparatedField(context[column]),
    )
      .map((field) => `${field}\t`)
      .join('');
    for (let start = 0, chunk = 0; start < rows.length; start += CHUNK_ROWS, chunk++) {
      const end = Math.min(rows.length, start + CHUNK_ROWS);
      const body = tabSeparatedRows(prefix, rows, own, start, end);
      await this.clickhouse.insert({
        table,
        values: Readable.from([body], { objectMode: false }),
        columns: [...CONTEXT_COLUMNS, ...own] as [string, ...string[]],
        format: 'TabSeparated',
        clickhouse_settings: {
          // Deduplication by token needs synchronous inserts on a real server.
          async_insert: 0,
          // A retried block skipped by the table must be skipped by its views' tables too
          // (migration 0005), whatever the server's default.
          deduplicate_blocks_in_dependent_materialized_views: 1,
          insert_deduplication_token: `${context.report_id}:v${context.ingest_version}:${table}:${chunk}`,
        },
      });
      // The client counts rows only for arrays of values; a text body is counted here.
      this.metrics.clickhouseRows.inc({ table }, end - start);
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
