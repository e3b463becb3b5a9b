export * from './envelope.js';
export * from './health.js';
export * from './query-messages.js';
export * from './query.js';
export * from './query-requests.js';
export * from './validation.js';
export * from './auth.js';
export * from './projects.js';
export * from './region-config.js';
export * from './region-config-limits.js';
export * from './region-plan.js';
export * from './budgets.js';
export * from './web-config.js';
export * from './organizations.js';
export * from './public-access.js';
export * from './format.js';
export * from './upload-limits.js';
// The API's types, derived from its schemas (the schemas themselves: @memtrail/contracts/schemas).
export type * from './schemas/index.js';
