export { ensureStores, stopStores, type Stores, type StoreStatus } from './stores.js';
export { readStackEnv } from './env-file.js';
export { localSecrets } from './secrets.js';
export { stackPorts } from './ports.js';
export { metricsPort } from './services.js';
export { DEMO, DEMO_COMMITS, demoCommitSha } from './demo/history.js';
export {
  DEMO_LINKER_SCRIPT,
  demoSources,
  demoVariant,
  type DemoTask,
  type DemoVariant,
} from './demo/firmware.js';
