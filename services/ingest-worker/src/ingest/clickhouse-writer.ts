import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient } from '@memtrail/clickhouse';
import type { RowContext } from './rows.js';

export const INGEST_TABLES = ['regions_v1', 'sections_v1', 'symbols_v1'] as const;
export type IngestTable = (typeof INGEST_TABLES)[number];

/** Rows per insert: large enough for ClickHouse, small enough to bound worker memory. */
export const CHUNK_ROWS = 20_000;

/**
 * Writes one report version's rows. Each chunk carries a deduplication token made of the
 * report, its version, the table and the chunk's position, so a job that is retried after a
 * crash writes every row exactly once.
 */
@Injectable()
export class ClickHouseWriter {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  async insert(table: IngestTable, context: RowContext, rows: object[]): Promise<number> {
    for (let start = 0, chunk = 0; start < rows.length; start += CHUNK_ROWS, chunk++) {
      await this.clickhouse.insert({
        table,
        values: rows.slice(start, start + CHUNK_ROWS),
        format: 'JSONEachRow',
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
    for (const table of INGEST_TABLES) {
      await this.clickhouse.command({
        query: `DELETE FROM ${table} WHERE report_id = {reportId:String} AND ingest_version < {version:UInt64}`,
        query_params: { reportId, version },
      });
    }
  }

  /** Every row of a deleted project, in every table. */
  async deleteProject(projectId: string): Promise<void> {
    for (const table of INGEST_TABLES) {
      await this.clickhouse.command({
        query: `DELETE FROM ${table} WHERE project_id = {projectId:String}`,
        query_params: { projectId },
      });
    }
  }
}
