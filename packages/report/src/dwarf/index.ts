export { resolveSources } from './sources.js';
export type { SourceLocation, SourceOptions, SourceRequest } from './sources.js';
export { DwarfParseError } from './errors.js';
