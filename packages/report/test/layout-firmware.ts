/**
 * Links the layout-test firmware with GNU ld scripts that name and place output sections as
 * ILINK or armlink would for a given layout, and reads the result back with objdump: the ground
 * truth the IAR and Arm layout tests compare against (ILINK and armlink cannot run here).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateReport, type GeneratedReport } from '@memtrail/report';

const here = dirname(fileURLToPath(import.meta.url));
export const FIRMWARE_SOURCE = join(here, 'fixtures', 'layout-firmware', 'app.c');

export interface TruthSection {
  name: string;
  size: number;
  vma: number;
  lma: number;
  /** Has contents in the file (objdump's LOAD flag): only these have a load image. */
  load: boolean;
}

export interface Firmware {
  dir: string;
  object: string;
  link(script: string, name: string): string;
  cleanup(): void;
}

/** Compiles the firmware once (`defines`: -D flags); `link` makes an ELF per GNU ld script. */
export function buildLayoutFirmware(defines: string[] = []): Firmware {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-layouts-'));
  const object = join(dir, 'app.o');
  execFileSync('arm-none-eabi-gcc', [
    '-mcpu=cortex-m4',
    '-mthumb',
    '-O1',
    '-g',
    '-ffreestanding',
    '-ffunction-sections',
    '-fdata-sections',
    ...defines.map((define) => `-D${define}`),
    '-c',
    FIRMWARE_SOURCE,
    '-o',
    object,
  ]);
  return {
    dir,
    object,
    link(script, name) {
      const elf = join(dir, `${name}.elf`);
      execFileSync('arm-none-eabi-ld', ['-T', script, object, '-o', elf], { stdio: 'pipe' });
      return elf;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Allocated sections with run and load addresses, from `objdump -h -w` (names may have spaces). */
export function objdumpSections(elf: string): TruthSection[] {
  const text = execFileSync('arm-none-eabi-objdump', ['-h', '-w', elf], { encoding: 'utf8' });
  const sections: TruthSection[] = [];
  for (const line of text.split('\n')) {
    const match =
      /^\s*\d+\s+(.+?)\s+([0-9a-f]{8})\s+([0-9a-f]{8})\s+([0-9a-f]{8})\s+[0-9a-f]{8}\s+2\*\*\d+\s+(.*)$/.exec(
        line,
      );
    if (!match || !match[5]!.includes('ALLOC')) continue;
    sections.push({
      name: match[1]!,
      size: parseInt(match[2]!, 16),
      vma: parseInt(match[3]!, 16),
      lma: parseInt(match[4]!, 16),
      load: match[5]!.includes('LOAD'),
    });
  }
  return sections;
}

/** Bytes covered by [start, end) ranges, overlaps counted once. */
export function coveredBytes(ranges: Array<[number, number]>): number {
  let total = 0;
  let reached = -Infinity;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (end <= reached) continue;
    total += end - Math.max(start, reached);
    reached = end;
  }
  return total;
}

/** A layout fixture linked by GNU ld: the linker configuration, and how it is read. */
export interface LinkedLayoutCase {
  /** Linked by `elf/<its name>.ld` in the fixtures. */
  file: string;
  defs?: string[];
  /** Relative to the fixtures. */
  searchPaths?: string[];
}

/**
 * Links the firmware with the case's GNU ld script and reads the ELF both ways: objdump's
 * sections (the truth) and our report of it from the case's layout file, with its warnings.
 */
export function linkedLayout(
  firmware: Firmware,
  fixtures: string,
  { file, defs, searchPaths }: LinkedLayoutCase,
): { truth: TruthSection[]; report: GeneratedReport; warnings: string[] } {
  const script = join(fixtures, 'elf', `${file.replace(/\.[^.]+$/, '')}.ld`);
  const elf = firmware.link(script, file);
  const warnings: string[] = [];
  const report = generateReport({
    elf,
    linkerScripts: [file],
    defs,
    cwd: fixtures,
    searchPaths: searchPaths?.map((dir) => join(fixtures, dir)),
    onWarning: (m) => warnings.push(m),
  });
  return { truth: objdumpSections(elf), report, warnings };
}
