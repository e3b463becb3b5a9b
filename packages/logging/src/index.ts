export * from './close-all.js';
export * from './create-logger.js';
export * from './nest-logger.js';
export * from './request-context.js';
export * from './shutdown-deadline.js';
