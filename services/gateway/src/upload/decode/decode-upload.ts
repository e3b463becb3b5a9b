import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  BlockUploadError,
  decodeBlockUpload,
  decodeRecord,
  encodeHeader,
  encodeRecord,
  fullStoredForm,
  scanJsonUpload,
  storedForm,
  UnstorableNumber,
  type BuiltBlock,
  type VersionRecord,
} from '@memtrail/symbol-blocks';
import { computeTotals, type Totals } from '../../ci-summary/totals.js';
import { blockFormRefused } from '../sent-blocks.js';
import { packBlocks, type PackedBlocks } from './packed-blocks.js';
import { validateUpload, type ValidUpload } from '../validate-upload.js';

/** An upload body as read from the request, before anything is decoded. */
export interface RawUpload {
  /**
   * The body in the chunks it arrived in (decodeUpload joins them and empties the list, so that
   * they can be freed while it decodes).
   */
  chunks: Uint8Array[];
  /** The request's Content-Encoding, lowercased ('identity' when absent). */
  encoding: string;
  /** Sent in block form (BLOCK_UPLOAD_TYPE) rather than as a JSON envelope. */
  blockForm?: boolean;
}

export interface DecodeOptions {
  /** Largest body accepted, compressed and uncompressed alike. */
  maxBytes: number;
}

/** An upload checked and reduced to what storing it and answering need. */
export interface DecodedUpload {
  upload: ValidUpload;
  /** Region and section totals of the report (an identical build's come from its parent). */
  totals: Totals;
  symbolCount: number;
  /** The envelope without its symbols, gzip-compressed: the version's header. */
  header: Uint8Array;
  /** The version record; null for an identical build, whose record is its parent's. */
  record: Uint8Array | null;
  /**
   * The blocks: for a JSON upload every block of the report, split here, with their symbol
   * counts; for one in block form those the client sent, unchecked until the store knows which
   * it lacks (symbol counts 0).
   */
  blocks: PackedBlocks & { symbolCounts: Uint32Array };
  /** The record as a block-form upload sent it, to check against the blocks before storing. */
  sentRecord: VersionRecord | null;
  /** Hex SHA-256 of the uncompressed document. */
  sha256: string;
}

export const tooLarge = (maxBytes: number) =>
  new PayloadTooLargeException(`Request body exceeds the upload limit of ${maxBytes} bytes`);

/** The body as one buffer: a copy only when it came in more than one chunk, which are let go. */
function joined(chunks: Uint8Array[]): Buffer {
  const parts = chunks.splice(0);
  const [only] = parts;
  return parts.length === 1 && only
    ? Buffer.from(only.buffer, only.byteOffset, only.byteLength)
    : Buffer.concat(parts);
}

function decompress(bytes: Buffer, encoding: string, maxBytes: number): Buffer {
  if (encoding === 'identity' || encoding === '') return bytes;
  if (encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw new BadRequestException(
      `Unsupported Content-Encoding "${encoding}": send JSON or gzip-compressed JSON`,
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
 * Everything CPU-heavy about an upload — decompression, JSON parsing, hashing, validation,
 * totals, and splitting the symbols into content-addressed blocks — in one step, so it can run
 * on a decode thread and hand back only the small result (and the blocks, packed). Rejects with
 * the 4xx HttpException the client should get.
 */
export async function decodeUpload(raw: RawUpload, options: DecodeOptions): Promise<DecodedUpload> {
  const body = joined(raw.chunks);
  if (body.byteLength === 0)
    throw new BadRequestException('Request body is empty: send the report as JSON');
  const text = decompress(body, raw.encoding, options.maxBytes);
  if (raw.blockForm) return decodeBlockForm(text);
  // Decoding would replace invalid bytes with U+FFFD, storing names that were never uploaded:
  // such a body is refused instead (JSON is UTF-8, RFC 8259; both CLIs send it).
  if (!isUtf8(text)) {
    throw new BadRequestException(
      'Request body is not valid UTF-8: send text such as symbol names as UTF-8',
    );
  }
  return decodeScanned(text) ?? decodeParsed(text);
}

/**
 * A full build's JSON upload read straight from its bytes (scanJsonUpload): about half the
 * cost of parsing and splitting it. Null for any upload the scan does not take, or whose
 * envelope the checks refuse: decodeParsed then decodes it and names its problems.
 */
export function decodeScanned(text: Buffer): DecodedUpload | null {
  const scanned = scanJsonUpload(text);
  if (!scanned) return null;
  let upload: ValidUpload;
  try {
    upload = validateUpload(scanned.envelope);
  } catch {
    return null;
  }
  if (upload.kind !== 'full') return null;
  const { header, record, blocks } = storable(() =>
    fullStoredForm(scanned.envelope, scanned.columns),
  );
  return {
    upload,
    totals: computeTotals(upload.report),
    symbolCount: scanned.columns.count,
    header,
    record,
    blocks: pack(blocks),
    sentRecord: null,
    sha256: sha256(text),
  };
}

/** A JSON upload parsed whole: any upload, and the one way its problems are named. */
export function decodeParsed(text: Buffer): DecodedUpload {
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
  const { header, record, blocks } = storable(() =>
    storedForm(json as UploadEnvelope, upload.kind),
  );
  // The symbols are in the blocks now; the rest of the gateway needs only the layout.
  upload.report = { ...report, symbols: [] };
  return {
    upload,
    totals,
    symbolCount,
    header,
    record,
    blocks: pack(blocks),
    sentRecord: null,
    sha256: sha256(text),
  };
}

/**
 * Bound of a sent record once inflated: a record takes about 25 bytes per block of the report
 * (a million-symbol build, 1 MB) plus its duplicate names; a deflate bomb is refused instead of
 * filling the thread's memory.
 */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * An upload the client split into blocks (BLOCK_UPLOAD_TYPE): the header is checked as a JSON
 * envelope without symbols; the record and blocks are read here and checked by the store,
 * which alone knows which blocks the target holds (ReportStore).
 */
function decodeBlockForm(body: Buffer): DecodedUpload {
  let form;
  try {
    form = decodeBlockUpload(body);
  } catch (error) {
    if (error instanceof BlockUploadError) throw blockFormRefused(error.message);
    throw error;
  }
  const upload = validateUpload(form.header);
  if (upload.kind !== 'full')
    throw blockFormRefused('identical and failed builds have no blocks: send them as JSON');
  if (upload.report.symbols.length > 0)
    throw blockFormRefused('the header lists symbols: they belong in the blocks');
  let record: VersionRecord;
  try {
    record = decodeRecord(form.record, undefined, MAX_RECORD_BYTES);
  } catch (error) {
    throw blockFormRefused(`the record cannot be read: ${(error as Error).message}`);
  }
  return {
    upload,
    totals: computeTotals(upload.report),
    symbolCount: record.symbolCount,
    header: encodeHeader(form.header),
    record: storable(() => encodeRecord(record)),
    blocks: { ...packBlocks(form.blocks), symbolCounts: new Uint32Array(form.blocks.length) },
    sentRecord: record,
    sha256: sha256(body),
  };
}

/**
 * A stored form, or a 400 for a report whose numbers no version record holds: the checks take
 * addresses and sizes up to 2^64 (ClickHouse's UInt64), a record's differences stay below 2^53.
 */
function storable<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof UnstorableNumber)) throw error;
    throw new BadRequestException(
      'memory_analysis.symbols: addresses and sizes must stay below 2^52 (4503599627370496) to be stored',
    );
  }
}

/** A JSON upload's blocks, split by the server, packed with their symbol counts. */
function pack(blocks: BuiltBlock[]): DecodedUpload['blocks'] {
  return {
    ...packBlocks(blocks.map((b) => ({ hash: Buffer.from(b.hash, 'hex'), data: b.canonical }))),
    symbolCounts: Uint32Array.from(blocks, (b) => b.symbolCount),
  };
}

/** The buffers of a decoded upload that a thread can hand over without copying. */
export function decodedBuffers(decoded: DecodedUpload): Uint8Array[] {
  const { header, record, blocks } = decoded;
  return [header, record, blocks.hashes, blocks.data, blocks.ends, blocks.symbolCounts]
    .filter((view) => view !== null)
    .map((view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
}
