/** Report diff in the manner of Chromium SuperSize: cascading symbol matching, padding rows. */
export { diffReports, type DiffOptions } from './diff-reports.js';
export { regionRenames } from './region-renames.js';
export { matchSymbols, type SymbolPair } from './match-symbols.js';
export { toChangesSummary, toUploadChanges } from './upload-changes.js';
