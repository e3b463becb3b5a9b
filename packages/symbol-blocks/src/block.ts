import * as crypto from 'node:crypto';
import type { ReportSymbol } from '@memtrail/contracts';

/**
 * One symbol as a block stores it: every field of the uploaded symbol except the address, which
 * is relative to the block's base (its first symbol), and the section, which the block holds
 * once. A link that moves the block leaves these values, and so the block's hash, unchanged.
 */
export interface BlockSymbol {
  name: string;
  /** Demangled full name; '' when the upload has none. */
  full_name: string;
  /** Address minus the block's base address. */
  rel: number;
  size: number;
  type: string;
  binding: string;
  visibility: string;
  source_file: string;
  source_line: number;
  archive: string;
  object_file: string;
}

/** A run of symbols of one output section, contiguous in address order. */
export interface Block {
  section: string;
  symbols: BlockSymbol[];
}

/** Bumped whenever the canonical form changes: blocks of different forms never share a hash. */
const FORMAT = 1;

/** A block's canonical bytes: what is hashed, stored in Postgres and decoded again. */
export function encodeBlock(block: Block): Buffer {
  return encodeRows(
    block.section,
    block.symbols.map((s) => [
      s.name,
      s.full_name,
      s.rel,
      s.size,
      s.type,
      s.binding,
      s.visibility,
      s.source_file,
      s.source_line,
      s.archive,
      s.object_file,
    ]),
  );
}

export function encodeRows(section: string, rows: unknown[][]): Buffer {
  return Buffer.from(JSON.stringify([FORMAT, section, rows]), 'utf8');
}

/** What encodeRows writes before a block's first row… */
export const rowsOpening = (section: string): string => `[${FORMAT},${JSON.stringify(section)},[`;
/** …and after its last. */
export const rowsClosing = ']]';

/** An uploaded symbol's canonical row (the fields of BlockSymbol, in order); older CLIs omit
 * the optional fields. */
export function canonicalRow(
  symbol: ReportSymbol & { full_name?: string },
  base: number,
): unknown[] {
  return [
    symbol.name,
    symbol.full_name ?? '',
    symbol.address - base,
    symbol.size,
    symbol.type ?? 'NOTYPE',
    symbol.binding ?? '',
    symbol.visibility ?? '',
    symbol.source_file ?? '',
    symbol.source_line ?? 0,
    symbol.archive ?? '',
    symbol.object_file ?? '',
  ];
}

type Row = [string, string, number, number, string, string, string, string, number, string, string];

export function decodeBlock(bytes: Uint8Array): Block {
  const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as [number, string, Row[]];
  if (!Array.isArray(parsed) || parsed[0] !== FORMAT)
    throw new Error(`symbol block of unknown format ${String(parsed?.[0])}`);
  return {
    section: parsed[1],
    symbols: parsed[2].map((r) => ({
      name: r[0],
      full_name: r[1],
      rel: r[2],
      size: r[3],
      type: r[4],
      binding: r[5],
      visibility: r[6],
      source_file: r[7],
      source_line: r[8],
      archive: r[9],
      object_file: r[10],
    })),
  };
}

/** Bytes of a block hash: 128 bits of SHA-256, so that no two blocks of a target ever collide. */
export const HASH_BYTES = 16;

/**
 * One-shot SHA-256 as hex where Node.js has it (20.12 onwards): a report hashes hundreds of
 * blocks, and a Hash object per block cost about 2 µs each.
 */
const sha256Hex: (bytes: Uint8Array) => string =
  typeof crypto.hash === 'function'
    ? (bytes) => crypto.hash('sha256', bytes, 'hex')
    : (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The block's id: the first 16 bytes of SHA-256 over its canonical bytes, as hex. */
export function blockHash(canonical: Uint8Array): string {
  return sha256Hex(canonical).slice(0, 2 * HASH_BYTES);
}
