export * from './api-key-format.js';
export * from './api-key-principal.js';
export * from './api-key.guard.js';
export * from './api-key.service.js';
export * from './api-keys.module.js';
export * from './create-project-with-key.js';
