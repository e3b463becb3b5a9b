import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A small Cortex-M firmware whose footprint drifts from commit to commit the way a real one's
 * does: buffers resized, a feature added, a table moved to flash. Built with the Debian
 * arm-none-eabi toolchain so the demo history is real ELF files with DWARF and a map file.
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

/** What changes between firmware steps; the sources below are written from it. */
export interface DemoVariant {
  /** Bytes of the UART receive buffer `rx_buffer`. */
  rxBufferBytes: number;
  /** Entries of the scheduler's `tasks` table. */
  tasks: number;
  /** MQTT retries with backoff (adds `retries`). */
  mqttRetries: boolean;
  /** The ADC lookup table `lut` is const, so it moves from RAM (.data) to flash (.rodata). */
  lutInFlash: boolean;
}

export function demoVariant(step: number): DemoVariant {
  return {
    rxBufferBytes: 256 + 64 * (step % 5),
    tasks: 4 + Math.floor(step / 3),
    mqttRetries: step >= 6,
    lutInFlash: step >= 9,
  };
}

/** The C sources of the firmware at `step`, by path. */
export function demoSources(step: number): Record<string, string> {
  const { rxBufferBytes: rx, tasks, mqttRetries, lutInFlash } = demoVariant(step);
  return {
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
int mqtt_poll(int now);
int scheduler_run(int ticks);
int sensor_read(int channel);
int main(void) {
  int acc = 0;
  for (int t = 0; t < 1000; t++) acc += mqtt_poll(t) + scheduler_run(t) + sensor_read(t & 3);
  uart_write((const char *)&acc, sizeof acc);
  return acc;
}
`,
    'src/drivers/uart.h': `int uart_write(const char *data, int length);\n`,
    'src/drivers/uart.c': `static volatile char rx_buffer[${rx}];
static volatile char tx_buffer[256];
volatile unsigned *const UART_DR = (unsigned *)0x40011004;
int uart_write(const char *data, int length) {
  for (int i = 0; i < length; i++) { tx_buffer[i & 255] = data[i]; *UART_DR = (unsigned)data[i]; }
  return rx_buffer[length % ${rx}];
}
`,
    'src/net/mqtt.c': `static int session_state[32];
${mqttRetries ? 'static int retries;\nstatic int backoff(int attempt) { return attempt < 6 ? 1 << attempt : 64; }\n' : ''}int mqtt_poll(int now) {
  session_state[now & 31] += now;
${mqttRetries ? '  if (session_state[now & 31] < 0) { retries++; return backoff(retries); }\n' : ''}  return session_state[(now * 7) & 31];
}
`,
    'src/sensors/adc.c': `${lutInFlash ? 'static const' : 'static'} short lut[128] = {${Array.from({ length: 128 }, (_, i) => (i * 37) % 1024).join(',')}};
int sensor_read(int channel) {
${lutInFlash ? '' : '  lut[channel & 127] += 1; /* calibration drift, in RAM */\n'}  return lut[(channel * 31) & 127];
}
`,
    'lib/rtos/tasks.c': `struct task { void (*entry)(void); int stack[64]; int state; };
static struct task tasks[${tasks}];
int scheduler_run(int ticks) {
  int ready = 0;
  for (int i = 0; i < ${tasks}; i++) { tasks[i].state += ticks; ready += tasks[i].state & 1; }
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
