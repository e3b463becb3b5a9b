export { ensureStores, stopStores, type Stores, type StoreStatus } from './stores.js';
export { readStackEnv } from './env-file.js';
export { stackPorts } from './ports.js';
