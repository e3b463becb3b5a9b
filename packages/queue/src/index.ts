export * from './names.js';
export * from './jobs.js';
export * from './connection.js';
export * from './queues.js';
