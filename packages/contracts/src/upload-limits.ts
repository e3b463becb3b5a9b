/**
 * Limits of an upload's envelope (`POST /upload`), shared by its schema (schemas/report.ts) and
 * the gateway's hand-written validator on the hot path (validate-upload.ts).
 */

/** Commit SHAs as uploads and reads take them: 4-64 hex digits. */
export const SHA_PATTERN = /^[0-9a-f]{4,64}$/;

/** Addresses, sizes and lines are stored as ClickHouse UInt64: whole numbers below this. */
export const UINT64_LIMIT = 2 ** 64;
/** Source lines are UInt32. */
export const LINE_LIMIT = 2 ** 32;

/** Longest texts of an upload's metadata, in characters. */
export const UPLOAD_TEXT_MAX = {
  targetName: 200,
  sha: 64,
  commitMessage: 100_000,
  person: 500,
  timestamp: 100,
  branch: 500,
  prNumber: 50,
  prName: 1000,
  analysisVersion: 100,
} as const;

/** The text fields of a report symbol besides its name (each a string, or absent). */
export const SYMBOL_TEXT_FIELDS = [
  'type',
  'binding',
  'visibility',
  'section',
  'source_file',
  'archive',
  'object_file',
  'full_name',
] as const;
