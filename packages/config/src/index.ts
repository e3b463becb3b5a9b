export * from './load-config.js';
export * from './validators.js';
export * from './common-config.js';
