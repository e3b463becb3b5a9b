import type { EngineResult } from '../engine/connection.js';

/** Content-Type for a response in the given ClickHouse output format. */
export function contentTypeFor(format: string): string {
  const f = format.toLowerCase();
  if (f.startsWith('json') && !f.endsWith('eachrow') && !f.includes('lines')) {
    return 'application/json; charset=UTF-8';
  }
  if (f.startsWith('json') || f === 'ndjson' || f === 'jsonlines') {
    return 'application/x-ndjson; charset=UTF-8';
  }
  if (f.startsWith('tabseparated') || f.startsWith('tsv')) {
    return 'text/tab-separated-values; charset=UTF-8';
  }
  if (f.startsWith('csv')) return 'text/csv; charset=UTF-8';
  if (f.startsWith('pretty') || f === 'vertical' || f === 'markdown') {
    return 'text/plain; charset=UTF-8';
  }
  return 'application/octet-stream';
}

/** The X-ClickHouse-Summary header value: every counter as a decimal string. */
export function summaryHeader(result: EngineResult | undefined): string {
  const r = result ?? {
    body: Buffer.alloc(0),
    elapsedSeconds: 0,
    readRows: 0,
    readBytes: 0,
    writtenRows: 0,
    writtenBytes: 0,
  };
  const isWrite = r.writtenRows > 0 || r.writtenBytes > 0;
  return JSON.stringify({
    read_rows: String(r.readRows),
    read_bytes: String(r.readBytes),
    written_rows: String(r.writtenRows),
    written_bytes: String(r.writtenBytes),
    total_rows_to_read: '0',
    result_rows: String(isWrite ? r.writtenRows : r.readRows),
    result_bytes: String(isWrite ? r.writtenBytes : r.body.length),
    elapsed_ns: String(Math.max(0, Math.round(r.elapsedSeconds * 1e9))),
  });
}
