export * from './store-urls.js';
export * from './base-stores.js';
export * from './isolated-stores.js';
export * from './eventually.js';
export * from './free-port.js';
export * from './project-data.js';
export * from './code-hosts/github.js';
export * from './code-hosts/gitlab.js';
