import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  decodeBlock,
  decodeRecord,
  encodeRecord,
  envelopeFrom,
  recordNeedsBase,
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

/**
 * How long a chain of records written as changes may grow before a whole record is written
 * again: reading a version reads at most this many records before it.
 */
export const MAX_RECORD_DEPTH = 16;

/** A version's record, rebuilt, and how many records it was written after. */
export interface StoredRecord {
  record: VersionRecord;
  depth: number;
}

/** One stored report version (`report_versions`), decoded. */
export interface StoredVersion extends VersionKey {
  targetId: string;
  /** The upload envelope without its symbols. */
  header: UploadEnvelope;
  /** Null for an identical build not yet ingested (its record is its parent's). */
  record: VersionRecord | null;
  /** Records read before this one to rebuild it (0: written whole). */
  recordDepth: number;
  /** The version its block events count from, once ingested. */
  base: VersionKey | null;
}

interface ChainRow {
  target_id: string;
  header: Buffer | null;
  record: Buffer | null;
  record_depth: number;
  base_report_id: string | null;
  base_version: number | null;
}

/**
 * A version and the records it is written as changes to, newest first: one recursive read,
 * bounded by MAX_RECORD_DEPTH (and by a guard against a loop in damaged data).
 */
async function chain(
  db: Queryable,
  reportId: string,
  version: number,
  withHeader: boolean,
): Promise<ChainRow[]> {
  const { rows } = await db.query<ChainRow>(
    `WITH RECURSIVE chain AS (
       SELECT target_id, ${withHeader ? 'header' : 'NULL::bytea AS header'}, record, record_depth,
              record_base_report_id, record_base_version, base_report_id, base_version, 0 AS step
       FROM report_versions WHERE report_id = $1 AND version = $2
       UNION ALL
       SELECT v.target_id, NULL::bytea, v.record, v.record_depth, v.record_base_report_id,
              v.record_base_version, NULL::uuid, NULL::int, c.step + 1
       FROM report_versions v JOIN chain c
         ON v.report_id = c.record_base_report_id AND v.version = c.record_base_version
       WHERE c.step < ${MAX_RECORD_DEPTH + 1}
     )
     SELECT target_id::text, header, record, record_depth, base_report_id::text, base_version
     FROM chain ORDER BY step`,
    [reportId, version],
  );
  return rows;
}

/** The record at the head of a chain, rebuilt from its whole base record up. */
function rebuild(
  rows: readonly ChainRow[],
  reportId: string,
  version: number,
): VersionRecord | null {
  if (!rows[0]?.record) return null;
  let record: VersionRecord | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const stored = rows[i]!.record;
    if (!stored)
      throw new Error(`report ${reportId} v${version}: a record it is written after is missing`);
    if (record === undefined && recordNeedsBase(stored))
      throw new Error(`report ${reportId} v${version}: its chain of records has no whole record`);
    record = decodeRecord(stored, record);
  }
  return record!;
}

/** A report version as stored; null when there is no such version. */
export async function readVersion(
  db: Queryable,
  reportId: string,
  version: number,
): Promise<StoredVersion | null> {
  const rows = await chain(db, reportId, version, true);
  const row = rows[0];
  if (!row) return null;
  return {
    reportId,
    version,
    targetId: row.target_id,
    header: JSON.parse(gunzipSync(row.header!).toString('utf8')) as UploadEnvelope,
    record: rebuild(rows, reportId, version),
    recordDepth: row.record_depth,
    base:
      row.base_report_id !== null && row.base_version !== null
        ? { reportId: row.base_report_id, version: row.base_version }
        : null,
  };
}

/** Decoded records by `reportId/version`: a record never changes, so any cache will do. */
export interface RecordCache {
  get(key: string): StoredRecord | undefined;
  set(key: string, value: StoredRecord): void;
}

/**
 * Only a version's record, rebuilt; null when the version has none (or does not exist). With
 * a cache holding the record it was written after (its parent's, read a moment ago), one row
 * is read and one delta applied; otherwise the whole chain is read.
 */
export async function readRecord(
  db: Queryable,
  reportId: string,
  version: number,
  cache?: RecordCache,
): Promise<StoredRecord | null> {
  const key = `${reportId}/${version}`;
  const hit = cache?.get(key);
  if (hit) return hit;
  let stored: StoredRecord | null = null;
  if (cache) {
    const { rows } = await db.query<{
      record: Buffer | null;
      base_report_id: string | null;
      base_version: number | null;
      record_depth: number;
    }>(
      `SELECT record, record_base_report_id::text AS base_report_id,
              record_base_version AS base_version, record_depth
       FROM report_versions WHERE report_id = $1 AND version = $2`,
      [reportId, version],
    );
    const row = rows[0];
    if (!row?.record) return null;
    const base =
      row.base_report_id === null
        ? undefined
        : cache.get(`${row.base_report_id}/${row.base_version}`);
    if (row.base_report_id === null || base) {
      stored = { record: decodeRecord(row.record, base?.record), depth: row.record_depth };
    }
  }
  if (!stored) {
    const rows = await chain(db, reportId, version, false);
    const record = rebuild(rows, reportId, version);
    stored = record && { record, depth: rows[0]!.record_depth };
  }
  if (stored) cache?.set(key, stored);
  return stored;
}

/**
 * The stored form of `record`: written as changes to `base`'s when there is one and its chain
 * is still short, else whole. Returns the bytes with the base and depth to store beside them.
 */
export function storableRecord(
  record: VersionRecord,
  base: (VersionKey & StoredRecord) | null,
): { record: Buffer; base: VersionKey | null; depth: number } {
  if (!base || base.depth + 1 > MAX_RECORD_DEPTH)
    return { record: encodeRecord(record), base: null, depth: 0 };
  return {
    record: encodeRecord(record, base.record),
    base: { reportId: base.reportId, version: base.version },
    depth: base.depth + 1,
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
  return envelopeFrom(version.header, record, (hash) => blocks.get(hash)!);
}
