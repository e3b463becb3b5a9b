/**
 * A tiny Cortex-M firmware project compiled with the Debian arm-none-eabi toolchain: sources, a
 * linker script that INCLUDEs its MEMORY block from `ld/` (so `-L` matters) and a build script
 * writing out/fw.elf and out/fw.map. Options change the footprint between commits.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface FirmwareOptions {
  /** Size of the `.bss` buffer in bytes. */
  bufferSize?: number;
  /** Adds a function to `.text`. */
  withFeature?: boolean;
}

export const ELF = 'out/fw.elf';
export const MAP = 'out/fw.map';
export const SCRIPT = 'board.ld';
export const SCRIPT_DIR = 'ld';

const MEMORY_LD = `MEMORY
{
  FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = 128K
  RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = 32K
}
`;

const BOARD_LD = `INCLUDE memory.ld
_estack = ORIGIN(RAM) + LENGTH(RAM);
ENTRY(Reset_Handler)
SECTIONS
{
  .isr_vector : { KEEP(*(.isr_vector)) } > FLASH
  .text : { *(.text .text.*) *(.rodata .rodata.*) . = ALIGN(4); } > FLASH
  .data : { _sdata = .; *(.data .data.*) . = ALIGN(4); _edata = .; } > RAM AT > FLASH
  _sidata = LOADADDR(.data);
  .bss (NOLOAD) : { _sbss = .; *(.bss .bss.*) *(COMMON) . = ALIGN(4); _ebss = .; } > RAM
  /DISCARD/ : { *(.ARM.exidx*) }
}
`;

const STARTUP_C = `extern int main(void);
extern unsigned _sidata, _sdata, _edata, _sbss, _ebss, _estack;

void Reset_Handler(void) {
  unsigned *src = &_sidata, *dst = &_sdata;
  while (dst < &_edata) *dst++ = *src++;
  for (dst = &_sbss; dst < &_ebss;) *dst++ = 0;
  main();
  for (;;) {}
}

__attribute__((section(".isr_vector"), used)) const void *const vectors[] = {&_estack, Reset_Handler};
`;

function mainC(options: FirmwareOptions): string {
  const feature = options.withFeature
    ? `int feature(int x) { return x * counter + 3; }\n`
    : `int feature(int x) { return x; }\n`;
  return `static unsigned char buffer[${options.bufferSize ?? 256}];
int counter = 7;
${feature}
int main(void) {
  for (unsigned i = 0; i < sizeof buffer; i++) buffer[i] = (unsigned char)(i + counter);
  return feature(buffer[3]);
}
`;
}

const FLAGS = '-mcpu=cortex-m4 -mthumb -O1 -g -ffunction-sections -fdata-sections';
// Objects get stable names (out/main.o), so two builds of the same sources give the same report.
const BUILD_SH = `set -e
mkdir -p out
for f in startup main; do arm-none-eabi-gcc ${FLAGS} -c src/$f.c -o out/$f.o; done
arm-none-eabi-gcc ${FLAGS} -nostdlib -L${SCRIPT_DIR} -T ${SCRIPT} -Wl,--gc-sections \\
  -Wl,-Map=${MAP} out/startup.o out/main.o -o ${ELF}
`;

/** The project's files, keyed by path, for writing into a directory or committing. */
export function firmwareFiles(options: FirmwareOptions = {}): Record<string, string> {
  return {
    [`${SCRIPT_DIR}/memory.ld`]: MEMORY_LD,
    [SCRIPT]: BOARD_LD,
    'src/startup.c': STARTUP_C,
    'src/main.c': mainC(options),
    'build.sh': BUILD_SH,
  };
}

/** Writes the project into `dir` and builds it; returns the ELF's absolute path. */
export function buildFirmwareProject(dir: string, options: FirmwareOptions = {}): string {
  for (const [file, content] of Object.entries(firmwareFiles(options))) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  execFileSync('sh', ['build.sh'], { cwd: dir, stdio: 'pipe' });
  return join(dir, ELF);
}

/** Section sizes by name from binutils, the ground truth for region usage. */
export function sectionSizes(elf: string): Map<string, number> {
  const out = execFileSync('arm-none-eabi-size', ['-A', elf], { encoding: 'utf8' });
  const sizes = new Map<string, number>();
  for (const line of out.split('\n')) {
    const m = /^(\.\S+)\s+(\d+)\s+\d+/.exec(line);
    if (m) sizes.set(m[1]!, Number(m[2]));
  }
  return sizes;
}
