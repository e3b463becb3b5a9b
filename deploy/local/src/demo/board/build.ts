import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { boardVariant } from './history.js';
import { boardLinkerScript, RISCV_REGIONS, stm32Regions } from './linker.js';
import { boardSources } from './sources.js';

export type BoardArch = 'cortex-m4' | 'rv32imac';

export interface BoardBuildOptions {
  arch: BoardArch;
  /** Commit of the board's history (BOARD_COMMITS) to build. */
  step: number;
  /** Where to build: the checkout goes into a folder of its own below it. */
  dir: string;
  /**
   * The checkout's folder, as a CI runner's workspace differs from build to build; the binaries
   * carry it as a real build's do.
   */
  checkout: string;
  /** Link-time optimisation (the Cortex-M4 build's default). */
  lto: boolean;
  /** Extra generated symbols (a large image); 0 for none. */
  bulk?: number;
}

export interface BoardBuild {
  elf: string;
  map: string;
  script: string;
}

const TOOLCHAINS: Record<BoardArch, { cc: string; flags: string[] }> = {
  'cortex-m4': { cc: 'arm-none-eabi-gcc', flags: ['-mcpu=cortex-m4', '-mthumb'] },
  rv32imac: {
    cc: 'riscv64-unknown-elf-gcc',
    flags: ['-march=rv32imac_zicsr', '-mabi=ilp32', '-mcmodel=medany'],
  },
};

export const toolchainOf = (arch: BoardArch) => TOOLCHAINS[arch].cc;

const run = promisify(execFile);

/** Writes the board's sources and linker script as of `step` and compiles them. */
export async function buildBoardFirmware(options: BoardBuildOptions): Promise<BoardBuild> {
  const variant = boardVariant(options.step);
  const root = join(options.dir, options.checkout);
  const regions = options.arch === 'cortex-m4' ? stm32Regions(variant.renamed) : RISCV_REGIONS;
  const files = {
    ...boardSources(variant, options.bulk ?? 0),
    'board/link.ld': boardLinkerScript(regions),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const build: BoardBuild = {
    elf: join(root, 'build', 'ch.elf'),
    map: join(root, 'build', 'ch.map'),
    script: join(root, 'board', 'link.ld'),
  };
  mkdirSync(dirname(build.elf), { recursive: true });
  const toolchain = TOOLCHAINS[options.arch];
  // make runs in the application's folder and names sources from there (../../os/…), as the
  // RTOS's makefiles do: the binary's paths lead out of it, to the checkout's folders.
  const makeDir = join(root, 'demos', 'app');
  await run(
    toolchain.cc,
    [
      ...toolchain.flags,
      '-O2',
      // As the RTOS's own builds do: clones for constant arguments, but no SRA'd ones.
      '-fno-ipa-sra',
      '-g',
      ...(options.lto ? ['-flto'] : []),
      '-ffunction-sections',
      '-fdata-sections',
      '-nostdlib',
      '-nostartfiles',
      '-fno-tree-loop-distribute-patterns',
      `-I${join(root, 'os/rt/include')}`,
      '-Wl,--gc-sections',
      `-Wl,-Map=${build.map}`,
      '-T',
      build.script,
      '-o',
      build.elf,
      ...Object.keys(files)
        .filter((file) => file.endsWith('.c'))
        .map((file) => relative(makeDir, join(root, file))),
      '-lgcc',
    ],
    { cwd: makeDir, maxBuffer: 64 * 1024 * 1024 },
  );
  return build;
}
