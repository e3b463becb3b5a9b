export { applyBinary, C_PRECEDENCE } from './integers.js';
export { SourceError } from './source-error.js';
