export * from './service-metrics.js';
export * from './http-metrics.js';
export * from './metrics-server.js';
export * from './queue-metrics.js';
export * from './clickhouse-metrics.js';
