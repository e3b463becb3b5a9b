/**
 * Generates the benchmark firmware: ~200 C files with ~40k symbols and full DWARF, built with
 * arm-none-eabi-gcc into a cache directory (rebuilt only when missing). Usage:
 *   node generate-firmware.js [cacheDir]   → prints the ELF path
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const FILES = 200;
const FUNCTIONS_PER_FILE = 85;
const VARIABLES_PER_FILE = 88;
const CFLAGS = [
  '-mcpu=cortex-m4',
  '-mthumb',
  '-O1',
  '-g',
  '-ffreestanding',
  '-ffunction-sections',
  '-fdata-sections',
  '-Iinclude',
];

const LINKER_SCRIPT = `MEMORY
{
  FLASH (rx)  : ORIGIN = 0x08000000, LENGTH = 16M
  RAM   (rwx) : ORIGIN = 0x20000000, LENGTH = 4M
}
ENTRY(bench_entry)
SECTIONS
{
  .text : { *(.text .text.*) } > FLASH
  .rodata : { *(.rodata .rodata.*) } > FLASH
  .data : { *(.data .data.*) } > RAM AT> FLASH
  .bss (NOLOAD) : { *(.bss .bss.* COMMON) } > RAM
  /DISCARD/ : { *(.ARM.exidx*) *(.ARM.extab*) }
}
`;

const HEADER = `#ifndef BENCH_TYPES_H
#define BENCH_TYPES_H
#include <stdint.h>
struct bench_packet { uint32_t id; uint16_t length; uint8_t payload[24]; struct bench_packet *next; };
struct bench_stats { uint32_t count; uint32_t errors; int32_t min; int32_t max; };
uint32_t bench_mix(uint32_t a, uint32_t b);
#endif
`;

function sourceFile(file: number): string {
  const lines = ['#include "bench/types.h"', ''];
  for (let v = 0; v < VARIABLES_PER_FILE; v++) {
    const name = `m${file}_v${v}`;
    switch (v % 4) {
      case 0:
        lines.push(`uint32_t ${name}[${4 + (v % 13)}] = {${v}, ${file}};`);
        break;
      case 1:
        lines.push(
          `static struct bench_stats ${name};`,
          `struct bench_stats *${name}_ref(void) { return &${name}; }`,
        );
        break;
      case 2:
        lines.push(`const uint16_t ${name}[${8 + (v % 7)}] = {${v}, ${file}, 3};`);
        break;
      default:
        lines.push(`struct bench_packet ${name}[2];`);
    }
  }
  for (let f = 0; f < FUNCTIONS_PER_FILE; f++) {
    const name = `m${file}_f${f}`;
    lines.push(
      `uint32_t ${name}(uint32_t seed, struct bench_packet *packet, const struct bench_stats *stats)`,
      '{',
      `  packet->id += ${file}u;`,
      `  return bench_mix(seed ^ ${f}u, packet->payload[${f % 24}] + stats->count) + m${file}_v${(f * 4) % VARIABLES_PER_FILE}[0];`,
      '}',
    );
  }
  return lines.join('\n') + '\n';
}

const MAIN = `#include "bench/types.h"
uint32_t bench_mix(uint32_t a, uint32_t b) { return (a << 5) ^ (a >> 3) ^ b; }
void bench_entry(void) { for (;;) { } }
`;

async function compileAll(dir: string, sources: string[]): Promise<string[]> {
  const objects = sources.map((s) => s.replace(/\.c$/, '.o'));
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const i = next++;
      await run('arm-none-eabi-gcc', [...CFLAGS, '-c', sources[i]!, '-o', objects[i]!], {
        cwd: dir,
      });
    }
  };
  await Promise.all([worker(), worker()]);
  return objects;
}

/** Returns the ELF path, building it first when the cache does not have it. */
export async function ensureBenchFirmware(
  cacheDir: string,
): Promise<{ elfPath: string; linkerScript: string }> {
  const dir = resolve(cacheDir);
  const elfPath = join(dir, 'bench-firmware.elf');
  const linkerScript = join(dir, 'bench.ld');
  if (existsSync(elfPath)) return { elfPath, linkerScript };
  mkdirSync(join(dir, 'include/bench'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'include/bench/types.h'), HEADER);
  writeFileSync(linkerScript, LINKER_SCRIPT);
  const sources = ['src/main.c'];
  writeFileSync(join(dir, 'src/main.c'), MAIN);
  for (let file = 0; file < FILES; file++) {
    // Sub-folders, like a real tree: src/module_07/file_123.c
    const path = `src/module_${String(file % 20).padStart(2, '0')}/file_${file}.c`;
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), sourceFile(file));
    sources.push(path);
  }
  const objects = await compileAll(dir, sources);
  await run(
    'arm-none-eabi-gcc',
    ['-mcpu=cortex-m4', '-mthumb', '-nostdlib', '-T', linkerScript, ...objects, '-o', elfPath],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  );
  return { elfPath, linkerScript };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { elfPath } = await ensureBenchFirmware(process.argv[2] ?? '.data/bench');
  process.stdout.write(`${elfPath}\n`);
}
