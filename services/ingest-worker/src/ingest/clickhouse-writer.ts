import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { ClickHouseClient, deleteStatement } from '@memtrail/clickhouse';
import { recordClickHouseInsert, ServiceMetrics } from '@memtrail/metrics';
import { WorkerConfig } from '../config.js';
import type { RowContext } from './rows.js';
import { lineEncoder, tabSeparatedBody, type LineEncoder } from './tab-separated.js';

export const INGEST_TABLES = ['regions_v1', 'sections_v1', 'symbols_v1'] as const;
export type IngestTable = (typeof INGEST_TABLES)[number];

/**
 * Every table holding a report's rows: the ones written here plus those the materialized views
 * fill from symbols_v1 (per-file sizes, per-section bytes). Cleanups must reach all of them.
 */
export const REPORT_TABLES = [...INGEST_TABLES, 'file_sizes_v1', 'section_bytes_v1'] as const;

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

/** Each table's body line: the report's position in the batch, then the table's own columns. */
const LINE_ENCODERS = Object.fromEntries(
  Object.entries(TABLE_COLUMNS).map(([table, columns]) => [
    table,
    lineEncoder(columns.map(([name]) => name)),
  ]),
) as Record<IngestTable, LineEncoder>;

/** Bounds of the unsigned column types; other columns are String. */
const UNSIGNED_LIMIT: Record<string, number> = { UInt32: 2 ** 32, UInt64: 2 ** 64 };

/**
 * The first value among `rows` that `table` cannot store, described; undefined when every one
 * fits. Checked per report before it joins a batch: ClickHouse refuses a whole insert for one
 * bad value, and the other reports of the batch must not fail with it.
 */
export function unstorableValue(
  table: IngestTable,
  rows: readonly Record<string, unknown>[],
): string | undefined {
  // Column by column, with the checks inline: this runs on every symbol of every report.
  for (const [name, type] of TABLE_COLUMNS[table]) {
    const limit = UNSIGNED_LIMIT[type] ?? 0;
    for (let i = 0; i < rows.length; i++) {
      const value = rows[i]![name];
      const fits =
        limit === 0
          ? typeof value === 'string' || Number.isFinite(value)
          : Number.isInteger(value) && (value as number) >= 0 && (value as number) < limit;
      if (!fits) return `${table} row ${i}: ${name} ${JSON.stringify(value)} is not a ${type}`;
    }
  }
  return undefined;
}

/** The rows of one report version for one table, with the columns they share. */
export interface ReportRows {
  context: RowContext;
  rows: readonly Record<string, unknown>[];
}

/** A ClickHouse string literal; backslash and quote are the only characters that can end it. */
function stringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${value} is not an integer`);
  return String(value);
}

/**
 * `INSERT ... SELECT ... FROM input(...)` for rows of several reports: each body row starts
 * with its report's position in `contexts` (1-based), and the statement looks the report's ids,
 * commit and version up in array literals. They are written once per report instead of on
 * every row: they were over half of a symbol body's bytes, and ClickHouse's cost per insert
 * grows with the bytes it parses.
 */
function insertStatement(table: IngestTable, contexts: readonly RowContext[]): string {
  const own = TABLE_COLUMNS[table];
  const pick = (values: string[]) => `[${values.join(', ')}][report]`;
  const constants = [
    pick(contexts.map((c) => stringLiteral(c.project_id))),
    pick(contexts.map((c) => stringLiteral(c.target_id))),
    pick(contexts.map((c) => stringLiteral(c.report_id))),
    pick(contexts.map((c) => stringLiteral(c.commit_sha))),
    `fromUnixTimestamp64Milli(${pick(contexts.map((c) => `toInt64(${integerLiteral(c.commit_time)})`))}, 'UTC')`,
    pick(contexts.map((c) => `toUInt64(${integerLiteral(c.ingest_version)})`)),
  ];
  const names = own.map(([name]) => name);
  const structure = ['report UInt32', ...own.map(([name, type]) => `${name} ${type}`)].join(', ');
  return (
    `INSERT INTO ${table} (${[...CONTEXT_COLUMNS, ...names].join(', ')}) ` +
    `SELECT ${[...constants, ...names].join(', ')} ` +
    `FROM input(${stringLiteral(structure)}) FORMAT TabSeparated`
  );
}

/** The pieces of each chunk: rows `from` to `to` of report `report`, at most `size` rows in all. */
function* chunks(
  reports: readonly ReportRows[],
  size: number,
): Generator<{ report: number; from: number; to: number }[]> {
  let pieces: { report: number; from: number; to: number }[] = [];
  let count = 0;
  for (let report = 0; report < reports.length; report++) {
    const total = reports[report]!.rows.length;
    for (let from = 0; from < total;) {
      const to = Math.min(total, from + size - count);
      pieces.push({ report, from, to });
      count += to - from;
      from = to;
      if (count === size) {
        yield pieces;
        pieces = [];
        count = 0;
      }
    }
  }
  if (count > 0) yield pieces;
}

/**
 * Writes report rows to ClickHouse. Each insert carries a deduplication token made of the
 * caller's `token` (a batch, or one report version), the table and the chunk's position, so
 * writing the same rows again under the same token after a crash stores every row once.
 */
@Injectable()
export class ClickHouseWriter {
  constructor(
    @Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient,
    @Inject(ServiceMetrics) private readonly metrics: ServiceMetrics,
    @Inject(WorkerConfig) private readonly config: Pick<WorkerConfig, 'CLICKHOUSE_TOPOLOGY'>,
  ) {}

  /**
   * Rows are sent as one TabSeparated body per chunk of CHUNK_ROWS rows. A `retry` first leaves
   * out the reports whose rows the table already holds in full: the token alone protects only
   * within the table's deduplication window (the last 1,000 inserts).
   */
  async insert(
    table: IngestTable,
    token: string,
    reports: readonly ReportRows[],
    { retry = false } = {},
  ): Promise<void> {
    const pending = retry ? await this.notYetStored(table, reports) : reports;
    if (pending.length === 0) return;
    const query = insertStatement(
      table,
      pending.map((r) => r.context),
    );
    let chunk = 0;
    for (const pieces of chunks(pending, CHUNK_ROWS)) {
      const body = tabSeparatedBody(
        LINE_ENCODERS[table],
        pieces.map(({ report, from, to }) => ({
          prefix: `${report + 1}\t`,
          rows: pending[report]!.rows,
          from,
          to,
        })),
      );
      const rows = pieces.reduce((n, p) => n + p.to - p.from, 0);
      const chunkToken = `${token}:${table}:${chunk++}`;
      await recordClickHouseInsert(this.metrics, table, rows, async () => {
        const result = await this.clickhouse.exec({
          query,
          values: Readable.from([body], { objectMode: false }),
          clickhouse_settings: {
            // Deduplication by token needs synchronous inserts on a real server.
            async_insert: 0,
            // A retried block skipped by the table must be skipped by its views' tables too
            // (migration 0005), whatever the server's default.
            deduplicate_blocks_in_dependent_materialized_views: 1,
            insert_deduplication_token: chunkToken,
          },
        });
        // The response is empty; reading it to the end lets the connection be reused.
        await finished(result.stream.resume());
      });
    }
  }

  /**
   * The reports of which `table` holds fewer rows of their version than they have. Only whole
   * reports are left out, so the chunks that remain keep their content and tokens: an insert of
   * several chunks holds a single report (batches stay below one chunk).
   */
  private async notYetStored(
    table: IngestTable,
    reports: readonly ReportRows[],
  ): Promise<readonly ReportRows[]> {
    const versions = reports.map(
      ({ context }) =>
        `(${stringLiteral(context.report_id)}, ${integerLiteral(context.ingest_version)})`,
    );
    const result = await this.clickhouse.query({
      query: `SELECT report_id, count() AS n FROM ${table}
              WHERE (report_id, ingest_version) IN (${versions.join(', ')}) GROUP BY report_id`,
      format: 'JSONEachRow',
    });
    const stored = new Map(
      (await result.json<{ report_id: string; n: number | string }>()).map((r) => [
        r.report_id,
        Number(r.n),
      ]),
    );
    return reports.filter((r) => (stored.get(r.context.report_id) ?? 0) < r.rows.length);
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
    await this.delete(
      `report_id = ${stringLiteral(reportId)} AND ingest_version < ${integerLiteral(version)}`,
    );
  }

  /** Every row of a deleted project, in every table. */
  async deleteProject(projectId: string): Promise<void> {
    await this.delete(`project_id = ${stringLiteral(projectId)}`);
  }

  /**
   * Deletes matching rows from every table of a report. Values are literals, not query
   * parameters: on a cluster the statement is queued for each node as text.
   */
  private async delete(condition: string): Promise<void> {
    for (const table of REPORT_TABLES) {
      await this.clickhouse.command({
        query: deleteStatement(this.config.CLICKHOUSE_TOPOLOGY, table, condition),
      });
    }
  }
}
