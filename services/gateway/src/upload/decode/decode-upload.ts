import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { UploadEnvelope } from '@memtrail/contracts';
import { HASH_BYTES, storedForm, type BuiltBlock } from '@memtrail/symbol-blocks';
import { computeTotals, type Totals } from '../../ci-summary/totals.js';
import { validateUpload, type ValidUpload } from '../validate-upload.js';

/** An upload body as read from the request, before anything is decoded. */
export interface RawUpload {
  bytes: Uint8Array;
  /** The request's Content-Encoding, lowercased ('identity' when absent). */
  encoding: string;
}

export interface DecodeOptions {
  /** Largest body accepted, compressed and uncompressed alike. */
  maxBytes: number;
}

/**
 * The distinct blocks of a report, packed for a cheap hand-over between threads: block i has
 * hash `hashes[16i … 16i+16)` and canonical bytes `data[ends[i-1] … ends[i])`.
 */
export interface PackedBlocks {
  hashes: Uint8Array;
  data: Uint8Array;
  ends: Uint32Array;
  symbolCounts: Uint32Array;
}

/** An upload checked and reduced to what acknowledging it needs. */
export interface DecodedUpload {
  upload: ValidUpload;
  /** Region and section totals of the report (an identical build's come from its parent). */
  totals: Totals;
  symbolCount: number;
  /**
   * The uploaded document, gzip-compressed (the body itself when it came compressed): stored
   * with the report until its version is, so an acknowledged upload is never lost.
   */
  payload: Uint8Array;
  /** Hex SHA-256 of the uncompressed document. */
  sha256: string;
}

/** An upload's stored form: the version's header and record, and its blocks (packed). */
export interface SplitUpload {
  /** The envelope without its symbols, gzip-compressed. */
  header: Uint8Array;
  /** Null for an identical build, whose record is its parent's. */
  record: Uint8Array | null;
  blocks: PackedBlocks;
}

export const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(`Request body exceeds the upload limit of ${maxBytes} bytes`);

const isPlain = (raw: RawUpload) => raw.encoding === 'identity' || raw.encoding === '';

function decompress(raw: RawUpload, maxBytes: number): Buffer {
  const bytes = Buffer.from(raw.bytes.buffer, raw.bytes.byteOffset, raw.bytes.byteLength);
  if (isPlain(raw)) return bytes;
  if (raw.encoding !== 'gzip' && raw.encoding !== 'x-gzip') {
    throw new BadRequestException(
      `Unsupported Content-Encoding "${raw.encoding}": send JSON or gzip-compressed JSON`,
    );
  }
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || (error as RangeError).name === 'RangeError')
      throw tooLarge(maxBytes);
    throw new BadRequestException(`Request body is not valid gzip: ${(error as Error).message}`);
  }
}

/**
 * What acknowledging an upload needs of its CPU-heavy work — decompression, JSON parsing,
 * hashing, validation and totals — in one step, so it can run on a decode thread and hand back
 * only the small result and the payload; `document` is the parsed upload, for splitUpload.
 * Rejects with the 4xx HttpException the client should get.
 */
export function decodeUpload(
  raw: RawUpload,
  options: DecodeOptions,
): { decoded: DecodedUpload; document: UploadEnvelope } {
  if (raw.bytes.byteLength === 0)
    throw new BadRequestException('Request body is empty: send the report as JSON');
  const text = decompress(raw, options.maxBytes);
  // Decoding would replace invalid bytes with U+FFFD, storing names that were never uploaded:
  // such a body is refused instead (JSON is UTF-8, RFC 8259; both CLIs send it).
  if (!isUtf8(text)) {
    throw new BadRequestException(
      'Request body is not valid UTF-8: send text such as symbol names as UTF-8',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.toString('utf8'));
  } catch (error) {
    throw new BadRequestException(`Request body is not valid JSON: ${(error as Error).message}`);
  }
  const upload = validateUpload(json);
  const report = upload.report;
  const symbolCount = report.symbols.length;
  const totals = computeTotals(report);
  // The symbols stay in the document; the rest of the gateway needs only the layout.
  upload.report = { ...report, symbols: [] };
  const decoded = {
    upload,
    totals,
    symbolCount,
    payload: isPlain(raw) ? gzipSync(text, { level: 1 }) : raw.bytes,
    sha256: createHash('sha256').update(text).digest('hex'),
  };
  return { decoded, document: json as UploadEnvelope };
}

/**
 * Splits a decoded upload into its stored form: content-addressed blocks (canonical bytes,
 * SHA-256, content-defined boundaries) and the version's record. This is the larger part of an
 * upload's CPU and its acknowledgement does not need it, so it runs after (UploadService).
 */
export function splitUpload(document: UploadEnvelope, kind: ValidUpload['kind']): SplitUpload {
  const { header, record, blocks } = storedForm(document, kind);
  return { header, record, blocks: pack(blocks) };
}

function pack(blocks: BuiltBlock[]): PackedBlocks {
  const hashes = Buffer.alloc(blocks.length * HASH_BYTES);
  const ends = new Uint32Array(blocks.length);
  const symbolCounts = new Uint32Array(blocks.length);
  let end = 0;
  blocks.forEach((b, i) => {
    hashes.write(b.hash, i * HASH_BYTES, 'hex');
    end += b.canonical.length;
    ends[i] = end;
    symbolCounts[i] = b.symbolCount;
  });
  const data = Buffer.concat(
    blocks.map((b) => b.canonical),
    end,
  );
  return { hashes, data, ends, symbolCounts };
}

/** Block i of packed blocks: its hash and canonical bytes. */
export function packedBlock(blocks: PackedBlocks, i: number): { hash: Buffer; data: Buffer } {
  const start = i === 0 ? 0 : blocks.ends[i - 1]!;
  return {
    hash: Buffer.from(blocks.hashes.buffer, blocks.hashes.byteOffset + i * HASH_BYTES, HASH_BYTES),
    data: Buffer.from(blocks.data.buffer, blocks.data.byteOffset + start, blocks.ends[i]! - start),
  };
}

/** The buffers of a split upload that a thread can hand over without copying. */
export function splitBuffers(split: SplitUpload): Uint8Array[] {
  const { header, record, blocks } = split;
  return [header, record, blocks.hashes, blocks.data, blocks.ends, blocks.symbolCounts]
    .filter((view) => view !== null)
    .map((view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
}
