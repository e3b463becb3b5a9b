/**
 * Builds the firmware under fixtures/firmware with the real cross toolchains into a temporary
 * directory, and reads ground truth back with binutils. Compiling happens with the fixture directory
 * as working directory, so DW_AT_comp_dir is that directory and source paths keep their folders.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  'fixtures/firmware',
);

export type Variant =
  'arm-c-dwarf5' | 'arm-c-dwarf4' | 'arm-cpp' | 'arm-lto' | 'riscv-c' | 'arm-be';

export interface Firmware {
  variant: Variant;
  elfPath: string;
  mapPath: string;
  linkerScript: string;
  /** binutils prefix, e.g. "arm-none-eabi-". */
  tools: string;
}

const C_SOURCES = [
  'src/startup.c',
  'src/main.c',
  'src/ring.c',
  'src/drivers/usb.c',
  'src/drivers/uart/uart.c',
  'src/net/init.c',
];
const CPP_SOURCES = ['cpp/app.cpp', 'cpp/main.cpp'];

function run(command: string, args: string[]): string {
  return execFileSync(command, args, {
    cwd: FIXTURE_DIR,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

interface Recipe {
  cc: string;
  cxx: string;
  tools: string;
  flags: string[];
  linkFlags: string[];
  script: string;
  sources: string[];
}

function recipe(variant: Variant): Recipe {
  const sections = ['-ffunction-sections', '-fdata-sections'];
  const arm = {
    cc: 'arm-none-eabi-gcc',
    cxx: 'arm-none-eabi-g++',
    tools: 'arm-none-eabi-',
    script: 'ld/cortex-m.ld',
  };
  const armFlags = [
    '-mcpu=cortex-m4',
    '-mthumb',
    '-O1',
    '-ffreestanding',
    ...sections,
    '-Iinclude',
  ];
  switch (variant) {
    case 'arm-c-dwarf5':
      return { ...arm, flags: [...armFlags, '-g', '-gdwarf-5'], linkFlags: [], sources: C_SOURCES };
    case 'arm-c-dwarf4':
      return { ...arm, flags: [...armFlags, '-g', '-gdwarf-4'], linkFlags: [], sources: C_SOURCES };
    case 'arm-be':
      return {
        ...arm,
        flags: [...armFlags, '-mbig-endian', '-g', '-gdwarf-4'],
        linkFlags: ['-mbig-endian'],
        sources: C_SOURCES,
      };
    case 'arm-lto':
      return {
        ...arm,
        flags: [...armFlags, '-flto', '-g'],
        linkFlags: ['-flto', '-O1', '-g'],
        sources: C_SOURCES,
      };
    case 'arm-cpp':
      return {
        ...arm,
        flags: [...armFlags, '-g', '-fno-exceptions', '-fno-rtti'],
        linkFlags: [],
        sources: ['src/startup.c', ...CPP_SOURCES],
      };
    case 'riscv-c':
      return {
        cc: 'riscv64-unknown-elf-gcc',
        cxx: 'riscv64-unknown-elf-g++',
        tools: 'riscv64-unknown-elf-',
        script: 'ld/riscv.ld',
        flags: [
          '-march=rv64imac',
          '-mabi=lp64',
          '-mcmodel=medany',
          '-O1',
          '-ffreestanding',
          '-g',
          ...sections,
          '-Iinclude',
        ],
        linkFlags: ['-march=rv64imac', '-mabi=lp64'],
        sources: C_SOURCES,
      };
  }
}

/** Compiles and links one variant (the util library goes through `ar`). Call `cleanup` when done. */
export function buildFirmware(variant: Variant): Firmware & { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `memtrail-fw-${variant}-`));
  const r = recipe(variant);
  const objects: string[] = [];
  for (const source of r.sources) {
    const object = join(dir, source.replace(/[/.]/g, '_') + '.o');
    const isCpp = source.endsWith('.cpp');
    const flags = isCpp
      ? r.flags
      : r.flags.filter((f) => f !== '-fno-exceptions' && f !== '-fno-rtti');
    run(isCpp ? r.cxx : r.cc, [...flags, '-c', source, '-o', object]);
    objects.push(object);
  }
  const utilObject = join(dir, 'util.o');
  run(r.cc, [
    ...r.flags.filter((f) => f !== '-fno-exceptions' && f !== '-fno-rtti'),
    '-c',
    'lib/util.c',
    '-o',
    utilObject,
  ]);
  run(`${r.tools}ar`, ['rcs', join(dir, 'libutil.a'), utilObject]);
  const elfPath = join(dir, 'firmware.elf');
  const mapPath = join(dir, 'firmware.map');
  const linker = r.sources.some((s) => s.endsWith('.cpp')) ? r.cxx : r.cc;
  const cpu = r.flags.filter((f) => f.startsWith('-mcpu') || f === '-mthumb');
  run(linker, [
    ...cpu,
    ...r.linkFlags,
    '-nostdlib',
    '-T',
    r.script,
    '-Wl,--gc-sections',
    `-Wl,-Map=${mapPath}`,
    ...objects,
    `-L${dir}`,
    '-lutil',
    '-o',
    elfPath,
  ]);
  return {
    variant,
    elfPath,
    mapPath,
    linkerScript: join(FIXTURE_DIR, r.script),
    tools: r.tools,
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs a binutils program (e.g. "readelf") of the firmware's toolchain. */
export function binutils(fw: Pick<Firmware, 'tools'>, tool: string, args: string[]): string {
  return run(`${fw.tools}${tool}`, args);
}
