/**
 * The demo account, project and commit history that `npm run seed` loads, in one place so the
 * end-to-end tests and the home-page screenshot capture sign in and look for the same data.
 */
export const DEMO = {
  email: 'demo@memtrail.dev',
  password: 'Demo!Firmware2026',
  project: 'Demo firmware',
  target: 'stm32f4-sensor',
  branch: 'main',
} as const;

/** Commit messages in upload order; the index is the firmware step built for that commit. */
export const DEMO_COMMITS = [
  'Initial sensor node firmware',
  'UART: larger receive buffer',
  'Scheduler: add housekeeping task',
  'Sensors: calibrate ADC channels',
  'UART: trim receive buffer',
  'Scheduler: add watchdog task',
  'MQTT: retry with exponential backoff',
  'UART: buffer for burst reads',
  'Scheduler: add logging task',
  'Sensors: move lookup table to flash',
  'UART: tune receive buffer',
  'Scheduler: add OTA task',
] as const;

/** One demo commit message; the firmware module says what each one changes. */
export type DemoCommit = (typeof DEMO_COMMITS)[number];

/** The commit SHA the seed uploads for `step`: recognisable and stable across machines. */
export const demoCommitSha = (step: number): string =>
  (0x5eed0000 + step).toString(16).padEnd(40, 'd');

/**
 * The demo project's RTOS board (board/history.ts): a Cortex-M4 build with link-time
 * optimisation on every commit, and a RISC-V build of the same commits once it was ported.
 */
export const DEMO_BOARD = {
  target: 'stm32f407-rtos',
  riscvTarget: 'ch32v307-riscv',
  /** First commit of the board's history with a RISC-V build. */
  riscvFrom: 9,
  budget: 'Release flash',
} as const;

/** The commit SHA of the board's commit `step`. */
export const boardCommitSha = (step: number): string =>
  (0xb0a2d000 + step).toString(16).padEnd(40, 'b');
