export * from './envelope.js';
export * from './health.js';
export * from './query-messages.js';
