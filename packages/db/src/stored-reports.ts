import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  decodeBlock,
  decodeRecord,
  reportSymbols,
  uploadedSymbol,
  type Block,
  type VersionRecord,
} from '@memtrail/symbol-blocks';

const gunzipAsync = promisify(gunzip);

/** A pg Pool or PoolClient: all these readers need. */
export interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * The upload envelope a report's legacy `payload` column holds (uploads stored before report
 * versions): the JSON document, gzip-compressed. Output chunks of 1 MiB: at zlib's default of
 * 16 KB, libuv's pool hands every chunk back to the event loop, which doubled the CPU of
 * gunzipping a 2.2 MB document. Rejects when the bytes are not gzip or not JSON.
 */
export async function readStoredPayload(payload: Uint8Array): Promise<UploadEnvelope> {
  const text = await gunzipAsync(payload, { chunkSize: 1 << 20 });
  return JSON.parse(text.toString('utf8')) as UploadEnvelope;
}

export interface VersionKey {
  reportId: string;
  version: number;
}

/** One stored report version (`report_versions`), decoded. */
export interface StoredVersion extends VersionKey {
  targetId: string;
  /** The upload envelope without its symbols. */
  header: UploadEnvelope;
  /** Null for an identical build not yet ingested (its record is its parent's). */
  record: VersionRecord | null;
  /** The version its block events count from, once ingested. */
  base: VersionKey | null;
}

interface VersionRow {
  target_id: string;
  header: Buffer;
  record: Buffer | null;
  base_report_id: string | null;
  base_version: number | null;
}

/** A report version as stored; null when there is no such version. */
export async function readVersion(
  db: Queryable,
  reportId: string,
  version: number,
): Promise<StoredVersion | null> {
  const { rows } = await db.query<VersionRow>(
    `SELECT target_id::text, header, record, base_report_id::text, base_version
     FROM report_versions WHERE report_id = $1 AND version = $2`,
    [reportId, version],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    reportId,
    version,
    targetId: row.target_id,
    header: JSON.parse(gunzipSync(row.header).toString('utf8')) as UploadEnvelope,
    record: row.record ? decodeRecord(row.record) : null,
    base:
      row.base_report_id !== null && row.base_version !== null
        ? { reportId: row.base_report_id, version: row.base_version }
        : null,
  };
}

/**
 * Blocks of a target by hash, decoded. Every hash must be stored: a missing block means lost
 * data, and is an error rather than a report with fewer symbols.
 */
export async function readBlocks(
  db: Queryable,
  targetId: string,
  hashes: readonly string[],
): Promise<Map<string, Block>> {
  const wanted = [...new Set(hashes)];
  const { rows } = await db.query<{ hash: Buffer; data: Buffer }>(
    `SELECT hash, data FROM symbol_blocks WHERE target_id = $1 AND hash = ANY($2::bytea[])`,
    [targetId, wanted.map((h) => Buffer.from(h, 'hex'))],
  );
  const blocks = new Map<string, Block>();
  for (const row of rows) blocks.set(row.hash.toString('hex'), decodeBlock(gunzipSync(row.data)));
  const missing = wanted.filter((h) => !blocks.has(h));
  if (missing.length > 0) {
    throw new Error(
      `target ${targetId} lacks ${missing.length} stored symbol block(s), e.g. ${missing[0]}`,
    );
  }
  return blocks;
}

/** The whole envelope of a stored version, its symbols rebuilt from the blocks. */
export async function readStoredEnvelope(
  db: Queryable,
  version: StoredVersion,
): Promise<UploadEnvelope> {
  const record = version.record;
  if (!record) return version.header;
  const blocks = await readBlocks(
    db,
    version.targetId,
    record.entries.map((e) => e.hash),
  );
  const symbols = reportSymbols(record, (hash) => blocks.get(hash)!).map(uploadedSymbol);
  return {
    ...version.header,
    memory_analysis: { ...version.header.memory_analysis, symbols },
  };
}
