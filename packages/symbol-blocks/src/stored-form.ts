import { gzipSync } from 'node:zlib';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  buildVersion,
  splitSymbols,
  symbolColumns,
  type BuiltBlock,
  type SymbolColumns,
} from './build.js';
import { encodeRecord, type VersionRecord } from './record.js';
import { reportSymbols, uploadedSymbol, type BlockLookup } from './symbols.js';

export type ReportKind = 'full' | 'identical' | 'build_failed';

/** How one upload is stored: a small header, its version record and its blocks. */
export interface StoredForm {
  /** The envelope without its symbols (metadata, layout, …), gzip-compressed. */
  header: Buffer;
  /** Null for an identical build: its record is its parent's. */
  record: Buffer | null;
  /** Every distinct block of the report; the store keeps those it does not hold yet. */
  blocks: BuiltBlock[];
}

/** The envelope without its symbols: what a version's header holds. */
export function headerOf(envelope: UploadEnvelope): UploadEnvelope {
  return { ...envelope, memory_analysis: { ...envelope.memory_analysis, symbols: [] } };
}

/** The envelope a version's header, record and blocks stand for: headerOf undone. */
export function envelopeFrom(
  header: UploadEnvelope,
  record: VersionRecord,
  blockOf: BlockLookup,
): UploadEnvelope {
  const symbols = reportSymbols(record, blockOf).map((s) =>
    uploadedSymbol(s, s.address, s.section),
  );
  return { ...header, memory_analysis: { ...header.memory_analysis, symbols } };
}

/** A version's header as stored: JSON, gzip-compressed. */
export function encodeHeader(header: unknown): Buffer {
  return gzipSync(JSON.stringify(header), { level: 6 });
}

/**
 * Splits an upload into its stored form. A failed build has an empty record (no symbols, even
 * if the upload listed some); an identical build none of its own.
 */
export function storedForm(envelope: UploadEnvelope, kind: ReportKind): StoredForm {
  if (kind === 'full')
    return fullStoredForm(envelope, symbolColumns(envelope.memory_analysis?.symbols ?? []));
  const header = encodeHeader(headerOf(envelope));
  if (kind === 'identical') return { header, record: null, blocks: [] };
  const built = buildVersion({ symbols: [], memory_layout: {} });
  return { header, record: encodeRecord(built.record), blocks: built.blocks };
}

/**
 * A full build's stored form from its envelope and its symbols' columns: parsed ones, or read
 * from the upload's bytes (scanJsonUpload, whose envelope has no symbols).
 */
export function fullStoredForm(envelope: UploadEnvelope, columns: SymbolColumns): StoredForm {
  const built = splitSymbols(columns, envelope.memory_analysis?.memory_layout ?? {});
  return {
    header: encodeHeader(headerOf(envelope)),
    record: encodeRecord(built.record),
    blocks: built.blocks,
  };
}
