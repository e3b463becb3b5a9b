// The `memtrail` package: the CLI entry point plus the pieces CI integrations reuse.
export { main } from './main.js';
export type { CliIo } from './context.js';
export { repositoryFromRemote } from './git/local.js';
export { detectGit } from './git/metadata.js';
export { buildEnvelope, identicalReport, failedBuildReport } from './upload/envelope.js';
export { renderReportText } from './render/report-text.js';
