/**
 * The history of the demo's RTOS board: an RTOS ported to an STM32F407 (Cortex-M4, link-time
 * optimised) in 2014 and grown for twelve years, with the changes real firmware sees — new
 * drivers and threads, linker scripts whose regions were renamed half-way (`flash` → `flash0`,
 * `ram` → `ram0`), a thread-creation function that GCC cloned (`.constprop.0`) for some
 * years, and a lookup table that broke the flash budget for one commit. A RISC-V port of the
 * same code joins for the last years.
 */

export interface BoardVariant {
  /** Linker scripts name the main regions `flash0`/`ram0` (before: `flash`/`ram`). */
  renamed: boolean;
  /**
   * Every thread starts at the normal priority, so GCC clones the creation function for that
   * constant (`chThdCreateStatic.constprop.0`); otherwise one thread starts higher and it is not.
   */
  onePriority: boolean;
  /** Application threads, each with its own working area (bytes). */
  threads: readonly { name: string; stack: number }[];
  /** Bytes of the shell's command history. */
  shellHistory: number;
  /** Entries of the DAC's sine table in flash (4 bytes each); 0 without one. */
  sineTable: number;
  /** The USB CDC console (driver and its buffers). */
  usb: boolean;
  /** Bytes of the Ethernet DMA descriptors and buffers, in their own RAM region. */
  ethBuffers: number;
}

type Change = (variant: BoardVariant) => BoardVariant;

const thread =
  (name: string, stack: number): Change =>
  (v) => ({ ...v, threads: [...v.threads, { name, stack }] });
const set =
  (patch: Partial<BoardVariant>): Change =>
  (v) => ({ ...v, ...patch });

const INITIAL: BoardVariant = {
  renamed: false,
  onePriority: false,
  threads: [
    { name: 'blinker', stack: 256 },
    { name: 'monitor', stack: 512 },
  ],
  shellHistory: 256,
  sineTable: 0,
  usb: false,
  ethBuffers: 0,
};

/** Commit messages with their change, oldest first; `at` is the commit date. */
export const BOARD_COMMITS: readonly { message: string; at: string; change: Change }[] = [
  { message: 'Port the kernel to the STM32F407 board', at: '2014-03-11', change: (v) => v },
  { message: 'Shell thread on the serial port', at: '2014-09-02', change: thread('shell', 1024) },
  { message: 'ADC sampling thread', at: '2015-04-20', change: thread('sampler', 512) },
  { message: 'Longer shell history', at: '2015-11-05', change: set({ shellHistory: 1024 }) },
  {
    message: 'Start every thread at the normal priority',
    at: '2016-06-14',
    change: set({ onePriority: true }),
  },
  { message: 'USB CDC console', at: '2017-02-27', change: set({ usb: true }) },
  { message: 'Logger thread', at: '2017-10-09', change: thread('logger', 768) },
  {
    message: 'Ethernet MAC with its DMA buffers',
    at: '2018-05-22',
    change: set({ ethBuffers: 6144 }),
  },
  { message: 'Network thread', at: '2019-01-15', change: thread('net', 2048) },
  {
    message: 'New linker scripts: flash and ram become flash0 and ram0',
    at: '2019-09-03',
    change: set({ renamed: true }),
  },
  { message: 'Sine table for the DAC', at: '2020-04-28', change: set({ sineTable: 16384 }) },
  {
    message: 'Compute the sine table at start-up, keep a quarter wave',
    at: '2020-05-04',
    change: set({ sineTable: 1024 }),
  },
  { message: 'Shorter shell history', at: '2020-12-01', change: set({ shellHistory: 512 }) },
  {
    message: 'Watchdog thread above normal priority',
    at: '2021-12-28',
    change: (v) => ({ ...thread('watchdog', 256)(v), onePriority: false }),
  },
  {
    message: 'Bigger network working area',
    at: '2022-08-16',
    change: (v) => ({
      ...v,
      threads: v.threads.map((t) => (t.name === 'net' ? { ...t, stack: 3072 } : t)),
    }),
  },
  { message: 'OTA update thread', at: '2023-06-06', change: thread('ota', 1536) },
  { message: 'Drop the USB console', at: '2024-03-19', change: set({ usb: false }) },
  { message: 'Telemetry thread', at: '2025-02-10', change: thread('telemetry', 1024) },
  { message: 'Release 21.11.4', at: '2026-01-20', change: set({ shellHistory: 768 }) },
];

/** The board's firmware as of commit `step`: every change applied in order. */
export function boardVariant(step: number): BoardVariant {
  if (!Number.isInteger(step) || step < 0 || step >= BOARD_COMMITS.length)
    throw new RangeError(`board step ${step} is outside 0..${BOARD_COMMITS.length - 1}`);
  return BOARD_COMMITS.slice(0, step + 1).reduce((variant, { change }) => change(variant), INITIAL);
}

/** The first step with the sine table at full size: the commit that breaks the flash budget. */
export const BUDGET_BREAKING_STEP = BOARD_COMMITS.findIndex(
  (_, step) => boardVariant(step).sineTable > 4096,
);
