import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import { ServiceMetrics } from '@memtrail/metrics';
import type { RowContext } from './rows.js';
import { tabSeparatedRows } from './tab-separated.js';

export const INGEST_TABLES = ['regions_v1', 'sections_v1', 'symbols_v1'] as const;
export type IngestTable = (typeof INGEST_TABLES)[number];

/**
 * Every table holding a report's rows: the ones written here plus those the materialized views
 * fill from symbols_v1 (per-file sizes, per-section bytes). Cleanups must reach all of them.
 */
const REPORT_TABLES = [...INGEST_TABLES, 'file_sizes_v1', 'section_bytes_v1'] as const;

/** Rows per insert: large enough for ClickHouse, small enough to bound worker memory. */
export const CHUNK_ROWS = 50_000;

/** Columns every row of a report carries; the insert statement gives them once, as constants. */
const CONTEXT_COLUMNS = [
  'project_id',
  'target_id',
  'report_id',
  'commit_sha',
  'commit_time',
  'ingest_version',
] as const;

/**
 * Each table's own columns as sent in the body, with the types they are read as (the tables
 * turn text into LowCardinality where they store it so).
 */
const TABLE_COLUMNS: Record<IngestTable, readonly (readonly [string, string])[]> = {
  regions_v1: [
    ['name', 'String'],
    ['type', 'String'],
    ['address', 'UInt64'],
    ['limit_size', 'UInt64'],
    ['used_size', 'UInt64'],
  ],
  sections_v1: [
    ['region', 'String'],
    ['name', 'String'],
    ['address', 'UInt64'],
    ['size', 'UInt64'],
    ['type', 'String'],
  ],
  symbols_v1: [
    ['symbol_index', 'UInt32'],
    ['name', 'String'],
    ['full_name', 'String'],
    ['address', 'UInt64'],
    ['size', 'UInt64'],
    ['type', 'String'],
    ['binding', 'String'],
    ['visibility', 'String'],
    ['section', 'String'],
    ['region', 'String'],
    ['source_file', 'String'],
    ['source_line', 'UInt32'],
    ['archive', 'String'],
    ['object_file', 'String'],
  ],
};

/** A ClickHouse string literal; backslash and quote are the only characters that can end it. */
function stringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * `INSERT ... SELECT <context constants>, * FROM input(<own columns>)`: the body holds only a
 * table's own columns, and the report's ids, commit and version are written once in the
 * statement instead of on every row (they were over half of a symbol body's bytes, and
 * ClickHouse's cost per insert grows with the bytes it parses).
 */
function insertStatement(table: IngestTable, context: RowContext): string {
  const own = TABLE_COLUMNS[table];
  const constants = [
    stringLiteral(context.project_id),
    stringLiteral(context.target_id),
    stringLiteral(context.report_id),
    stringLiteral(context.commit_sha),
    `fromUnixTimestamp64Milli(toInt64(${integerLiteral(context.commit_time)}), 'UTC')`,
    integerLiteral(context.ingest_version),
  ];
  const structure = own.map(([name, type]) => `${name} ${type}`).join(', ');
  return (
    `INSERT INTO ${table} (${[...CONTEXT_COLUMNS, ...own.map(([name]) => name)].join(', ')}) ` +
    `SELECT ${constants.join(', ')}, * FROM input(${stringLiteral(structure)}) FORMAT TabSeparated`
  );
}

function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${value} is not an integer`);
  return String(value);
}

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

  /** Rows are sent as one TabSeparated body per chunk. */
  async insert(
    table: IngestTable,
    context: RowContext,
    rows: readonly Record<string, unknown>[],
  ): Promise<number> {
    const own = TABLE_COLUMNS[table].map(([name]) => name);
    const query = insertStatement(table, context);
    for (let start = 0, chunk = 0; start < rows.length; start += CHUNK_ROWS, chunk++) {
      const end = Math.min(rows.length, start + CHUNK_ROWS);
      const result = await this.clickhouse.exec({
        query,
        values: Readable.from([tabSeparatedRows(rows, own, start, end)], { objectMode: false }),
        clickhouse_settings: {
          // Deduplication by token needs synchronous inserts on a real server.
          async_insert: 0,
          // A retried block skipped by the table must be skipped by its views' tables too
          // (migration 0005), whatever the server's default.
          deduplicate_blocks_in_dependent_materialized_views: 1,
          insert_deduplication_token: `${context.report_id}:v${context.ingest_version}:${table}:${chunk}`,
        },
      });
      // The response is empty; reading it to the end lets the connection be reused.
      await finished(result.stream.resume());
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
