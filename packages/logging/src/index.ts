export * from './create-logger.js';
export * from './nest-logger.js';
