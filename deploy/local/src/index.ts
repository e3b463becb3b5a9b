export { ensureStores, stopStores, type Stores, type StoreStatus } from './stores.js';
export { readStackEnv } from './env-file.js';
export { localSecrets } from './secrets.js';
export { stackPorts } from './ports.js';
export { metricsPort } from './services.js';
export { DEMO, DEMO_BOARD, DEMO_COMMITS, boardCommitSha, demoCommitSha } from './demo/history.js';
export {
  buildBoardFirmware,
  type BoardArch,
  type BoardBuild,
  type BoardBuildOptions,
} from './demo/board/build.js';
export {
  BOARD_COMMITS,
  BUDGET_BREAKING_STEP,
  boardVariant,
  type BoardVariant,
} from './demo/board/history.js';
export { stm32Regions } from './demo/board/linker.js';
export {
  DEMO_LINKER_SCRIPT,
  demoSources,
  demoVariant,
  type DemoTask,
  type DemoVariant,
} from './demo/firmware.js';
