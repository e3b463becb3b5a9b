import { isUtf8 } from 'node:buffer';
import { BLOCK_UPLOAD_TYPE, type UploadEnvelope } from '@memtrail/contracts';
import { ByteReader, ByteWriter } from './binary.js';
import { HASH_BYTES } from './block.js';
import { buildVersion } from './build.js';
import { encodeRecord } from './record.js';
import { headerOf } from './stored-form.js';

/**
 * Bytes that open an upload in block form (BLOCK_UPLOAD_TYPE): "MTB" and the form's version.
 * The server then neither parses every symbol nor splits them: it checks the blocks it does not
 * hold yet, and the record against the blocks.
 */
const MAGIC = Buffer.from([0x4d, 0x54, 0x42, 0x01]);

/** An upload in block form, as read from its bytes; nothing in it is checked yet. */
export interface BlockUpload {
  /** The envelope without its symbols, parsed from its JSON. */
  header: unknown;
  /** The version record as encodeRecord writes it (whole, deflated). */
  record: Uint8Array;
  /** Each distinct block the sender put in: its hash and canonical bytes (views of the body). */
  blocks: { hash: Uint8Array; data: Uint8Array }[];
}

export class BlockUploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockUploadError';
  }
}

/**
 * A full build's upload in block form: the envelope without its symbols (JSON), its version
 * record, and every distinct block. Split exactly as the server splits a JSON upload
 * (buildVersion), so both forms of one report store the same blocks and record.
 */
export function encodeBlockUpload(envelope: UploadEnvelope): Buffer {
  const report = envelope.memory_analysis;
  const built = buildVersion({
    symbols: report.symbols ?? [],
    memory_layout: report.memory_layout ?? {},
  });
  return writeBlockUpload({
    header: headerOf(envelope),
    record: encodeRecord(built.record),
    blocks: built.blocks.map((b) => ({ hash: Buffer.from(b.hash, 'hex'), data: b.canonical })),
  });
}

/** Puts the parts of a block-form upload together (decodeBlockUpload reads them back). */
export function writeBlockUpload(parts: BlockUpload): Buffer {
  const w = new ByteWriter();
  w.bytes(MAGIC);
  const header = Buffer.from(JSON.stringify(parts.header));
  w.uint(header.length);
  w.bytes(header);
  w.uint(parts.record.length);
  w.bytes(parts.record);
  w.uint(parts.blocks.length);
  for (const block of parts.blocks) {
    w.bytes(block.hash);
    w.uint(block.data.length);
    w.bytes(block.data);
  }
  return w.finish();
}

/** Reads the parts of a block-form upload; throws BlockUploadError naming what is wrong. */
export function decodeBlockUpload(body: Buffer): BlockUpload {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC))
    throw new BlockUploadError(
      `body is not in block form (${BLOCK_UPLOAD_TYPE} starts with ${MAGIC.toString('hex')})`,
    );
  const r = new ByteReader(body.subarray(MAGIC.length));
  try {
    let header: unknown;
    const headerBytes = r.bytes(r.uint());
    // As for a JSON upload: decoding would replace bad bytes with U+FFFD, storing other text.
    if (!isUtf8(headerBytes)) throw new BlockUploadError('header is not valid UTF-8');
    try {
      header = JSON.parse(headerBytes.toString('utf8'));
    } catch (error) {
      throw new BlockUploadError(`header is not valid JSON: ${(error as Error).message}`);
    }
    const record = r.bytes(r.uint());
    const count = r.uint();
    const blocks: BlockUpload['blocks'] = [];
    for (let i = 0; i < count; i++) {
      const hash = r.bytes(HASH_BYTES);
      blocks.push({ hash, data: r.bytes(r.uint()) });
    }
    if (!r.done) throw new BlockUploadError('body has bytes after its last block');
    return { header, record, blocks };
  } catch (error) {
    if (error instanceof RangeError) throw new BlockUploadError('body ends inside a part');
    throw error;
  }
}
