export * from './envelope.js';
export * from './health.js';
export * from './query-messages.js';
export * from './report.js';
export * from './validation.js';
export * from './upload.js';
export * from './diff.js';
