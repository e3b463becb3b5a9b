export {
  decodeBlock,
  encodeBlock,
  blockHash,
  HASH_BYTES,
  type Block,
  type BlockSymbol,
} from './block.js';
export {
  buildVersion,
  splitSymbols,
  symbolColumns,
  type SymbolColumns,
  MIN_SYMBOLS,
  CUT_MODULUS,
  MAX_SYMBOLS,
  type BuiltBlock,
  type BuiltVersion,
} from './build.js';
export {
  decodeRecord,
  encodeRecord,
  recordNeedsBase,
  withRegions,
  type ManifestEntry,
  type SectionBytes,
  type VersionRecord,
} from './record.js';
export { regionFinder } from './regions.js';
export { reportSymbols, uploadedSymbol, type BlockLookup, type StoredSymbol } from './symbols.js';
export {
  planDiff,
  reducedReports,
  reducedSymbols,
  UNCHANGED,
  type DiffPlan,
  type DiffSide,
} from './diff-plan.js';
export { blockCounts, blockEvents, occurrences } from './history.js';
export {
  encodeHeader,
  envelopeFrom,
  fullStoredForm,
  headerOf,
  storedForm,
  type ReportKind,
  type StoredForm,
} from './stored-form.js';
export { recordProblem } from './record-check.js';
export {
  BlockUploadError,
  decodeBlockUpload,
  encodeBlockUpload,
  writeBlockUpload,
  type BlockUpload,
} from './upload-form.js';
export { scanJsonUpload, type ScannedUpload } from './json-upload.js';
export { UnstorableNumber } from './binary.js';
