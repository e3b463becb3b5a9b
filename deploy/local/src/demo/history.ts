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
