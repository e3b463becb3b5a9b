import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixedSources } from './firmware-assets.js';
import { DEMO_COMMITS, type DemoCommit } from './history.js';

/**
 * A Cortex-M4 sensor node whose footprint drifts from commit to commit the way a real one's
 * does: buffers resized, tasks added, a table moved to flash, all on top of the bulk that a real
 * image carries (radio firmware, certificates, cipher tables, fonts, drivers, RTOS heap and
 * stacks), so the regions are about half (flash) and two thirds (RAM) full. Built with the
 * Debian arm-none-eabi toolchain so the demo history is real ELF files with DWARF and a map file.
 */

export interface DemoBuild {
  elf: string;
  map: string;
  script: string;
}

/** The GNU linker script every step is linked with: regions FLASH and RAM, five output sections. */
export const DEMO_LINKER_SCRIPT = `MEMORY
{
  FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = 256K
  RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = 64K
}
_estack = ORIGIN(RAM) + LENGTH(RAM);
ENTRY(Reset_Handler)
SECTIONS
{
  .isr_vector : { KEEP(*(.isr_vector)) } > FLASH
  .text : { *(.text .text.*) . = ALIGN(4); } > FLASH
  .rodata : { *(.rodata .rodata.*) . = ALIGN(4); } > FLASH
  .data : { _sdata = .; *(.data .data.*) . = ALIGN(4); _edata = .; } > RAM AT > FLASH
  _sidata = LOADADDR(.data);
  .bss (NOLOAD) : { _sbss = .; *(.bss .bss.*) *(COMMON) . = ALIGN(4); _ebss = .; } > RAM
  /DISCARD/ : { *(.ARM.exidx*) }
}
`;

/** An RTOS task: its entry function is `<name>_task`, its stack `<name>_stack`. */
export interface DemoTask {
  name: string;
  /** Bytes of the task's stack (a multiple of 8: Cortex-M stacks are 8-byte aligned). */
  stackBytes: number;
}

/** What changes between firmware steps; the sources below are written from it. */
export interface DemoVariant {
  /** Bytes of the UART receive (DMA) buffer `rx_buffer`. */
  rxBufferBytes: number;
  /** The scheduler's tasks, each with its own statically allocated stack. */
  tasks: readonly DemoTask[];
  /** Per-channel ADC gain and offset (adds the const table `adc_calibration`). */
  adcCalibration: boolean;
  /** MQTT retries with backoff (adds `retries` and the `inflight` publishes it resends). */
  mqttRetries: boolean;
  /** The ADC lookup table `lut` is const, so it moves from RAM (.data) to flash (.rodata). */
  lutInFlash: boolean;
}

const INITIAL: DemoVariant = {
  rxBufferBytes: 1024,
  tasks: [
    { name: 'sensor', stackBytes: 2048 },
    { name: 'network', stackBytes: 4096 },
    { name: 'display', stackBytes: 1536 },
    { name: 'idle', stackBytes: 512 },
  ],
  adcCalibration: false,
  mqttRetries: false,
  lutInFlash: false,
};

const addTask =
  (name: string, stackBytes: number) =>
  (variant: DemoVariant): DemoVariant => ({
    ...variant,
    tasks: [...variant.tasks, { name, stackBytes }],
  });
const receiveBuffer =
  (rxBufferBytes: number) =>
  (variant: DemoVariant): DemoVariant => ({ ...variant, rxBufferBytes });

/**
 * What each commit changes, keyed by its message so every message has exactly the change it
 * names (the compiler rejects a commit without one).
 */
const CHANGES: Record<DemoCommit, (variant: DemoVariant) => DemoVariant> = {
  'Initial sensor node firmware': (variant) => variant,
  'UART: larger receive buffer': receiveBuffer(2048),
  'Scheduler: add housekeeping task': addTask('housekeeping', 1024),
  'Sensors: calibrate ADC channels': (variant) => ({ ...variant, adcCalibration: true }),
  'UART: trim receive buffer': receiveBuffer(1536),
  'Scheduler: add watchdog task': addTask('watchdog', 512),
  'MQTT: retry with exponential backoff': (variant) => ({ ...variant, mqttRetries: true }),
  'UART: buffer for burst reads': receiveBuffer(3072),
  'Scheduler: add logging task': addTask('logging', 1536),
  'Sensors: move lookup table to flash': (variant) => ({ ...variant, lutInFlash: true }),
  'UART: tune receive buffer': receiveBuffer(2560),
  'Scheduler: add OTA task': addTask('ota', 3072),
};

/** The firmware as of commit `step`: every commit's change applied in order. */
export function demoVariant(step: number): DemoVariant {
  if (!Number.isInteger(step) || step < 0 || step >= DEMO_COMMITS.length)
    throw new RangeError(`demo step ${step} is outside 0..${DEMO_COMMITS.length - 1}`);
  return DEMO_COMMITS.slice(0, step + 1).reduce(
    (variant, message) => CHANGES[message](variant),
    INITIAL,
  );
}

/** Entries of the ADC lookup table `lut` (a thermistor curve, 2 bytes each). */
const LUT_ENTRIES = 1024;
/** Publishes awaiting their acknowledgement once MQTT retries (512 bytes each). */
const MQTT_INFLIGHT = 4;
/** Task control blocks are a fixed table, so adding a task costs only its stack and code. */
const MAX_TASKS = 12;

/** The C sources of the firmware at `step`, by path. */
export function demoSources(step: number): Record<string, string> {
  const { rxBufferBytes: rx, tasks, adcCalibration, mqttRetries, lutInFlash } = demoVariant(step);
  return {
    ...fixedSources(),
    'src/app/startup.c': `extern int main(void);
extern unsigned _sidata, _sdata, _edata, _sbss, _ebss, _estack;
void Reset_Handler(void) {
  unsigned *src = &_sidata, *dst = &_sdata;
  while (dst < &_edata) *dst++ = *src++;
  for (dst = &_sbss; dst < &_ebss;) *dst++ = 0;
  main();
  for (;;) {}
}
__attribute__((section(".isr_vector"), used)) const void *const vectors[] = {&_estack, Reset_Handler};
`,
    'src/app/main.c': `#include "../drivers/uart.h"
int radio_boot(void);
int tls_handshake(int seed);
int mqtt_poll(int now);
int scheduler_run(int ticks);
int sensor_read(int channel);
int sensors_poll(int tick);
int display_draw(int value);
int log_write(const char *text, int length);
int main(void) {
  int acc = radio_boot() + tls_handshake(0);
  for (int t = 0; t < 1000; t++) {
    acc += mqtt_poll(t) + scheduler_run(t) + sensor_read(t & 15) + sensors_poll(t);
    acc += display_draw(acc) + log_write((const char *)&acc, sizeof acc);
  }
  uart_write((const char *)&acc, sizeof acc);
  return acc;
}
`,
    'src/app/log.c': `static char log_ring[2048];
static unsigned log_head;
int log_write(const char *text, int length) {
  for (int i = 0; i < length; i++) log_ring[log_head++ & 2047] = text[i];
  return log_ring[(log_head * 7) & 2047];
}
`,
    'src/drivers/uart.h': `int uart_write(const char *data, int length);\n`,
    'src/drivers/uart.c': `static volatile char rx_buffer[${rx}];
static volatile char tx_buffer[512];
volatile unsigned *const UART_DR = (unsigned *)0x40011004;
int uart_write(const char *data, int length) {
  for (int i = 0; i < length; i++) { tx_buffer[i & 511] = data[i]; *UART_DR = (unsigned)data[i]; }
  return rx_buffer[length % ${rx}];
}
`,
    'src/net/mqtt.c': `static int session_state[32];
/* The receive packet is filled by DMA, the send packet by the client. */
static volatile unsigned char packet_in[2048];
static unsigned char packet_out[2048];
${mqttRetries ? `static int retries;\n/* Unacknowledged QoS 1 publishes, kept to be sent again. */\nstatic unsigned char inflight[${MQTT_INFLIGHT}][512];\nstatic int backoff(int attempt) { return attempt < 6 ? 1 << attempt : 64; }\n` : ''}int mqtt_poll(int now) {
  session_state[now & 31] += now + packet_in[now & 2047];
  packet_out[(now * 3) & 2047] = (unsigned char)session_state[now & 31];
${mqttRetries ? `  if (session_state[now & 31] < 0) { inflight[retries & ${MQTT_INFLIGHT - 1}][now & 511] = packet_out[now & 2047]; retries++; return backoff(retries) + inflight[(now >> 9) & ${MQTT_INFLIGHT - 1}][now & 511]; }\n` : ''}  return session_state[(now * 7) & 31] + packet_out[(now * 5) & 2047];
}
`,
    'src/net/tls.c': `extern const unsigned char ca_bundle[];
void aes_block(const unsigned char *in, unsigned char *out, int decrypt);
void *rtos_alloc(unsigned bytes);
static unsigned char tls_record[4096];
int tls_handshake(int seed) {
  unsigned char *session = rtos_alloc(512);
  for (int i = 0; i < 4096; i += 16) aes_block(&ca_bundle[(i + seed) & 8191], &tls_record[i], i & 16);
  session[0] = tls_record[seed & 4095];
  return session[0];
}
`,
    'src/sensors/adc.c': `${lutInFlash ? 'static const' : 'static'} short lut[${LUT_ENTRIES}] = {${Array.from({ length: LUT_ENTRIES }, (_, i) => (i * 37) % 1024).join(',')}};
static volatile short adc_dma[2][16][16];
${adcCalibration ? `static const struct { short gain, offset; } adc_calibration[16] = {${Array.from({ length: 16 }, (_, i) => `{${1000 + i * 7}, ${i * 3 - 20}}`).join(',')}};\n` : ''}int sensor_read(int channel) {
  int raw = adc_dma[channel & 1][channel & 15][0];
${lutInFlash ? '' : '  lut[raw & 1023] += 1; /* calibration drift, in RAM */\n'}${adcCalibration ? '  raw = raw * adc_calibration[channel & 15].gain / 1000 + adc_calibration[channel & 15].offset;\n' : ''}  return lut[(raw * 31) & 1023];
}
`,
    'lib/rtos/heap.c': `static unsigned char heap[14 * 1024] __attribute__((aligned(8)));
static unsigned heap_used;
void *rtos_alloc(unsigned bytes) {
  void *block = &heap[heap_used];
  heap_used = (heap_used + bytes + 7) & ~7u;
  return heap_used <= sizeof heap ? block : 0;
}
`,
    'lib/rtos/tasks.c': `struct tcb { void (*entry)(void); unsigned long long *stack; unsigned stack_words; int state; };
${tasks.map(({ name, stackBytes }) => `static unsigned long long ${name}_stack[${stackBytes / 8}];`).join('\n')}
static int ticks_seen;
${tasks.map(({ name }, index) => `static void ${name}_task(void) { ticks_seen += ${index + 1}; ${name}_stack[0] ^= (unsigned)ticks_seen; }`).join('\n')}
static const struct { const char *name; void (*entry)(void); unsigned long long *stack; unsigned stack_words; } task_defs[] = {
${tasks.map(({ name, stackBytes }) => `  {"${name}", ${name}_task, ${name}_stack, ${stackBytes / 8}},`).join('\n')}
};
static struct tcb tcbs[${MAX_TASKS}];
int scheduler_run(int ticks) {
  int ready = 0;
  for (unsigned i = 0; i < sizeof task_defs / sizeof task_defs[0]; i++) {
    if (!tcbs[i].entry) { tcbs[i].entry = task_defs[i].entry; tcbs[i].stack = task_defs[i].stack; tcbs[i].stack_words = task_defs[i].stack_words; }
    tcbs[i].state += ticks;
    if (tcbs[i].state & 1) { tcbs[i].entry(); ready++; }
  }
  return ready;
}
`,
  };
}

/** Writes and compiles the firmware as it was at `step`; returns where the outputs are. */
export function buildDemoFirmware(dir: string, step: number): DemoBuild {
  const files = { ...demoSources(step), 'link.ld': DEMO_LINKER_SCRIPT };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const c = Object.keys(files).filter((f) => f.endsWith('.c'));
  const build: DemoBuild = {
    elf: join(dir, 'fw.elf'),
    map: join(dir, 'fw.map'),
    script: join(dir, 'link.ld'),
  };
  execFileSync(
    'arm-none-eabi-gcc',
    [
      '-mcpu=cortex-m4',
      '-mthumb',
      '-O2',
      '-g',
      '-ffunction-sections',
      '-fdata-sections',
      '-nostdlib',
      '-nostartfiles',
      // Keep copy and clear loops as loops: there is no libc to provide memcpy and memset.
      '-fno-tree-loop-distribute-patterns',
      '-Wl,--gc-sections',
      `-Wl,-Map=${build.map}`,
      '-T',
      'link.ld',
      '-o',
      'fw.elf',
      ...c,
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  return build;
}
