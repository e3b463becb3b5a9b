import { byteList } from '../firmware-assets.js';
import type { BoardVariant } from './history.js';

/**
 * The C sources of the RTOS board at one variant, by path below the checkout: a small kernel
 * (threads, mutexes, semaphores, condition variables, timers), drivers, and the application.
 * Written so the compiler does to it what it does to real firmware: a thread-creation function
 * called with one constant priority is cloned (`.constprop.0`), two files' same-named static
 * helpers become `.lto_priv.N` under LTO, and link-time optimisation leaves a 0-byte marker per
 * source file (`chcond.c.1a2b3c4d`).
 */

/** Thread priorities; a thread above NORMALPRIO keeps the creation function uncloned. */
const NORMALPRIO = 128;

/** Bytes of the fonts and the cipher tables every build carries in flash. */
const FONT_BYTES = 18 * 1024;
const CIPHER_BYTES = 6 * 1024;

/** `bulk`: extra generated functions and tables for large builds (a 40k-symbol image). */
export function boardSources(v: BoardVariant, bulk = 0): Record<string, string> {
  const threads = v.threads;
  const priority = (name: string) =>
    !v.onePriority && name === threads.at(-1)?.name ? NORMALPRIO + 1 : NORMALPRIO;
  const files: Record<string, string> = {
    'os/rt/include/ch.h': `typedef void (*tfunc_t)(void *arg);
typedef struct thread { struct thread *next; int prio; unsigned char *wa; unsigned size; tfunc_t fn; void *arg; } thread_t;
thread_t *chThdCreateStatic(void *wa, unsigned size, int prio, tfunc_t fn, void *arg);
void chThdSleep(unsigned ticks);
void chMtxLock(int *m);
void chMtxUnlock(int *m);
void chSemWait(int *s);
void chSemSignal(int *s);
void chCondSignal(int *c);
void chVTSet(unsigned delay);
void chSysInit(void);
#define NORMALPRIO ${NORMALPRIO}
`,
    'os/rt/src/chthreads.c': `#include "ch.h"
static thread_t threads[16];
static unsigned created;
/* Kept out of line, as the real kernel's is: callers with one priority get a clone for it. */
__attribute__((noinline)) thread_t *chThdCreateStatic(void *wa, unsigned size, int prio, tfunc_t fn, void *arg) {
  thread_t *tp = &threads[created++ & 15];
  tp->wa = wa; tp->size = size; tp->prio = prio; tp->fn = fn; tp->arg = arg;
  for (unsigned i = 0; i < size; i += 64) ((unsigned char *)wa)[i] = (unsigned char)prio;
  tp->next = prio > NORMALPRIO ? &threads[0] : tp;
  return tp;
}
void chThdSleep(unsigned ticks) { chVTSet(ticks); }
`,
    'os/rt/src/chmtx.c': `#include "ch.h"
static int waiting[8];
__attribute__((noinline)) static void queue_insert(int *q, int v) { waiting[(v + *q) & 7] += v; *q += 1; }
void chMtxLock(int *m) { queue_insert(m, *m + 1); }
void chMtxUnlock(int *m) { *m -= waiting[*m & 7]; }
`,
    'os/rt/src/chsem.c': `#include "ch.h"
static int pending[8];
__attribute__((noinline)) static void queue_insert(int *q, int v) { pending[(v ^ *q) & 7] -= v; *q -= 1; }
void chSemWait(int *s) { queue_insert(s, *s - 2); }
void chSemSignal(int *s) { *s += pending[*s & 7]; }
`,
    'os/rt/src/chcond.c': `#include "ch.h"
static int signalled;
void chCondSignal(int *c) { signalled += *c; chSemSignal(c); }
`,
    'os/rt/src/chvt.c': `#include "ch.h"
static volatile unsigned systime, deadline;
void chVTSet(unsigned delay) { deadline = systime + delay; while (systime < deadline) systime++; }
`,
    'os/rt/src/chsys.c': `#include "ch.h"
static unsigned char heap[16 * 1024] __attribute__((aligned(8)));
static volatile unsigned heap_used;
void *chCoreAlloc(unsigned bytes) { void *p = &heap[heap_used & 16383]; heap_used += (bytes + 7) & ~7u; return p; }
void chSysInit(void) { heap_used = 0; }
`,
    'os/hal/src/hal_serial.c': `static volatile unsigned char rx_queue[512];
static unsigned char tx_queue[256];
volatile unsigned *const USART_DR = (unsigned *)0x40011004;
int sdPut(int c) { tx_queue[c & 255] = (unsigned char)c; *USART_DR = (unsigned)c; return rx_queue[c & 511]; }
`,
    'os/hal/src/hal_adc.c': `static volatile unsigned short samples[2][64];
int adcConvert(int channel) { return samples[channel & 1][channel & 63]; }
`,
    'os/various/fonts.c': `const unsigned char font_glyphs[${FONT_BYTES}] = ${byteList('board-fonts', FONT_BYTES)};\n`,
    'os/various/cipher.c': `static const unsigned char cipher_tables[${CIPHER_BYTES}] = ${byteList('board-cipher', CIPHER_BYTES)};
int cipher_round(int x) { return cipher_tables[(unsigned)x % ${CIPHER_BYTES}] ^ x; }
`,
    // Backup SRAM and the CCM (core-coupled) RAM have their own regions.
    'os/hal/src/hal_backup.c': `__attribute__((section(".bkpsram"))) unsigned boot_count;
__attribute__((section(".ram4"))) unsigned char ccm_scratch[4096];
unsigned backup_touch(void) { ccm_scratch[boot_count & 4095]++; return ++boot_count; }
`,
    'demos/app/main.c': `#include "ch.h"
int sdPut(int c);
void *chCoreAlloc(unsigned bytes);
int adcConvert(int channel);
int cipher_round(int x);
unsigned backup_touch(void);
extern const unsigned char font_glyphs[];
${v.usb ? 'int usbPoll(int n);\n' : ''}${v.ethBuffers ? 'int macPoll(int n);\n' : ''}${v.sineTable ? 'int dacSample(int n);\n' : ''}static char shell_history[${v.shellHistory}];
${threads.map((t) => `static unsigned char wa_${t.name}[${t.stack}] __attribute__((aligned(8)));`).join('\n')}
static int mutexes[2], semaphore, condition;
/* Indexes the tables at run time, so the optimiser keeps every byte of them. */
static volatile int pick;
${threads.map((t, i) => `static void ${t.name}_thread(void *arg) { chMtxLock(&mutexes[${i % 2}]); shell_history[${i}] ^= (char)(long)arg; chMtxUnlock(&mutexes[${i % 2}]); chSemWait(&semaphore); chCondSignal(&condition); chThdSleep(${(i + 1) * 10}); }`).join('\n')}
int main(void) {
  chSysInit();
  unsigned char *scratch = chCoreAlloc(256);
${threads.map((t, i) => `  chThdCreateStatic(wa_${t.name}, sizeof wa_${t.name}, ${priority(t.name)}, ${t.name}_thread, (void *)${i + 1});`).join('\n')}
  int acc = 0;
  for (int i = 0; i < 100; i++) {
    acc += sdPut(shell_history[i % ${v.shellHistory}]) + adcConvert(i) + cipher_round(acc + pick);
    acc += font_glyphs[(pick + i) % ${FONT_BYTES}] + scratch[i];
${v.usb ? '    acc += usbPoll(i + pick);\n' : ''}${v.ethBuffers ? '    acc += macPoll(i + pick);\n' : ''}${v.sineTable ? '    acc += dacSample(i + pick);\n' : ''}  }
  return acc + (int)backup_touch();
}
/* Where the result goes, so nothing main computes is optimised away. */
volatile int result;
void Reset_Handler(void) { result = main(); for (;;) {} }
__attribute__((section(".vectors"), used)) void (*const vectors[2])(void) = {0, Reset_Handler};
`,
  };
  if (v.usb) {
    files['os/hal/src/hal_usb.c'] = `static unsigned char usb_ep_buffers[4][64];
static const unsigned char usb_descriptors[] = ${byteList('usb-descriptors', 180)};
int usbPoll(int n) { usb_ep_buffers[n & 3][n & 63] = usb_descriptors[n % 180]; return usb_ep_buffers[(n + 1) & 3][n & 63]; }
`;
  }
  if (v.ethBuffers) {
    files['os/hal/src/hal_mac.c'] =
      `__attribute__((section(".eth"))) static unsigned char mac_buffers[${v.ethBuffers}];
int macPoll(int n) { return mac_buffers[(unsigned)n % ${v.ethBuffers}]++; }
`;
  }
  if (v.sineTable) {
    files['demos/app/dac.c'] =
      `static const int sine[${v.sineTable}] = {${Array.from({ length: v.sineTable }, (_, i) => Math.round(Math.sin((i / v.sineTable) * Math.PI * 2) * 2047)).join(',')}};
int dacSample(int n) { return sine[(unsigned)n % ${v.sineTable}]; }
`;
  }
  for (let file = 0; file * BULK_PER_FILE < bulk; file++) {
    files[`os/various/bulk/bulk_${file}.c`] = bulkSource(
      file,
      Math.min(BULK_PER_FILE, bulk - file * BULK_PER_FILE),
    );
  }
  return files;
}

/** Symbols per generated bulk file. */
const BULK_PER_FILE = 5000;

/**
 * `count` symbols of a large image: a fifth functions, the rest const tables of a few bytes,
 * kept by the linker script whatever references them.
 */
function bulkSource(file: number, count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${file}_${i}`;
    lines.push(
      i % 5 === 0
        ? `int bulk_fn_${id}(int x) { return x * ${(i % 97) + 3} + ${file}; }`
        : `const unsigned char bulk_table_${id}[${(i % 13) + 4}] = {${(i * 7) % 251}};`,
    );
  }
  return `${lines.join('\n')}\n`;
}
