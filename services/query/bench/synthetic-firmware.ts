/**
 * Deterministic synthetic firmware histories for the query tests, `npm run seed:scale`,
 * `npm run bench:query` and `npm run bench:storage`: a Cortex-M-like layout (FLASH with
 * .isr_vector, .text, .rodata and the load copy of .data; RAM with .data and .bss), symbols
 * spread over source files in module directories and a few archives and laid out object by
 * object as a linker does (the vector table first), and commits that change a handful of symbols each — grow, shrink,
 * add, remove, clone-suffix renames and moves between sections, as real churn does.
 */
import type { MemoryReport, ReportRegion, ReportSymbol, UploadEnvelope } from '@memtrail/contracts';
import { seededRandom } from '@memtrail/testing/random';

export interface SyntheticSymbol {
  name: string;
  size: number;
  section: '.isr_vector' | '.text' | '.rodata' | '.data' | '.bss';
  source_file: string;
  archive: string;
  object_file: string;
  type: 'FUNC' | 'OBJECT';
  binding: 'GLOBAL' | 'LOCAL';
}

const SECTIONS = ['.text', '.text', '.text', '.text', '.rodata', '.data', '.bss', '.bss'] as const;

function newSymbol(rnd: () => number, id: number): SyntheticSymbol {
  const section = SECTIONS[Math.floor(rnd() * SECTIONS.length)]!;
  const module = Math.floor(rnd() * 40);
  const file = Math.floor(rnd() * 25);
  const inLib = rnd() < 0.1;
  const func = section === '.text';
  return {
    name: `${func ? 'fn' : 'var'}_${module}_${id}`,
    size: func ? 8 + 2 * Math.floor(rnd() * 200) : 4 * (1 + Math.floor(rnd() * 64)),
    section,
    source_file: inLib ? `lib/newlib/libc_${file}.c` : `src/module_${module}/file_${file}.c`,
    archive: inLib ? 'libc.a' : '',
    object_file: inLib ? `libc_${file}.o` : `file_${file}.o`,
    type: func ? 'FUNC' : 'OBJECT',
    binding: rnd() < 0.2 ? 'LOCAL' : 'GLOBAL',
  };
}

/** A fresh firmware of `count` symbols (plus the vector table), always the same for a seed. */
export function initialFirmware(count: number, seed: number): SyntheticSymbol[] {
  const rnd = seededRandom(seed);
  const symbols: SyntheticSymbol[] = [
    {
      name: 'g_pfnVectors',
      size: 392,
      section: '.isr_vector',
      source_file: 'startup/startup_stm32.s',
      archive: '',
      object_file: 'startup_stm32.o',
      type: 'OBJECT',
      binding: 'GLOBAL',
    },
  ];
  for (let i = 0; i < count; i++) symbols.push(newSymbol(rnd, i));
  // In link order: each object's symbols together, objects by path, as a linker lays them out
  // (so growing one function moves every later symbol of its section).
  const [vectors, ...rest] = symbols;
  const keys = rest.map((s) => `${s.source_file}\u0000${s.object_file}`);
  const order = rest
    .map((_, i) => i)
    .sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  return [vectors!, ...order.map((i) => rest[i]!)];
}

export interface Churn {
  grow: number;
  shrink: number;
  add: number;
  remove: number;
  rename: number;
  move: number;
}

export const TYPICAL_CHURN: Churn = { grow: 3, shrink: 2, add: 1, remove: 1, rename: 0, move: 0 };

/**
 * A commit as most are: two functions of one source file grow (every later symbol of `.text`
 * moves with them when linked).
 */
export function growOneFile(
  symbols: readonly SyntheticSymbol[],
  rnd: () => number,
): SyntheticSymbol[] {
  const next = symbols.map((s) => ({ ...s }));
  const functions = next.filter((s) => s.type === 'FUNC' && s.section === '.text');
  const file = functions[Math.floor(rnd() * functions.length)]!.source_file;
  const inFile = functions.filter((s) => s.source_file === file);
  for (let i = 0; i < Math.min(2, inFile.length); i++) {
    inFile[Math.floor(rnd() * inFile.length)]!.size += 2 * (1 + Math.floor(rnd() * 32));
  }
  return next;
}

/** The next commit's firmware: a copy with a few edits (`nextId` names added symbols). */
export function evolve(
  symbols: readonly SyntheticSymbol[],
  churn: Churn,
  rnd: () => number,
  nextId: () => number,
): SyntheticSymbol[] {
  const next = symbols.map((s) => ({ ...s }));
  const pick = () => 1 + Math.floor(rnd() * (next.length - 1)); // never the vector table
  for (let i = 0; i < churn.grow; i++) next[pick()]!.size += 4 * (1 + Math.floor(rnd() * 16));
  for (let i = 0; i < churn.shrink; i++) {
    const s = next[pick()]!;
    s.size = Math.max(4, s.size - 4 * (1 + Math.floor(rnd() * 8)));
  }
  for (let i = 0; i < churn.rename; i++) {
    const s = next[pick()]!;
    const base = s.name.replace(/\.constprop\.\d+$/, '');
    s.name = `${base}.constprop.${Math.floor(rnd() * 4)}`;
  }
  for (let i = 0; i < churn.move; i++) {
    const s = next[pick()]!;
    if (s.type === 'OBJECT') s.section = s.section === '.data' ? '.bss' : '.data';
  }
  for (let i = 0; i < churn.remove; i++) next.splice(pick(), 1);
  for (let i = 0; i < churn.add; i++) {
    // Into its object, after the object's other symbols (as the linker would place it).
    const added = newSymbol(rnd, nextId());
    const last = next.findLastIndex((s) => s.source_file === added.source_file);
    next.splice(last === -1 ? next.length : last + 1, 0, added);
  }
  return next;
}

const FLASH = 0x0800_0000;
const RAM = 0x2000_0000;
const ORDER = ['.isr_vector', '.text', '.rodata', '.data', '.bss'] as const;
/** Bytes of alignment fill after each section's symbols: the padding rows of diffs. */
const FILL: Record<string, number> = {
  '.isr_vector': 0,
  '.text': 12,
  '.rodata': 4,
  '.data': 8,
  '.bss': 0,
};

/** Lays symbols out section by section and writes the report a CLI would upload. */
export function toReport(symbols: readonly SyntheticSymbol[]): MemoryReport {
  const bySection = new Map<string, SyntheticSymbol[]>(ORDER.map((s) => [s, []]));
  for (const s of symbols) bySection.get(s.section)!.push(s);
  const placed: ReportSymbol[] = [];
  const sectionInfo: Record<string, { address: number; size: number }> = {};
  let flash = FLASH;
  let ram = RAM;
  for (const name of ORDER) {
    const inRam = name === '.data' || name === '.bss';
    let address = inRam ? ram : flash;
    const start = address;
    for (const s of bySection.get(name)!) {
      placed.push({
        name: s.name,
        address: s.type === 'FUNC' ? address + 1 : address,
        size: s.size,
        type: s.type,
        binding: s.binding,
        section: s.section,
        source_file: s.source_file,
        source_line: 1 + (s.name.length % 97),
        visibility: 'DEFAULT',
        archive: s.archive,
        object_file: s.object_file,
      });
      address += s.size;
    }
    const size = address - start + FILL[name]!;
    sectionInfo[name] = { address: start, size };
    if (inRam) ram = start + size;
    else flash = start + size;
  }
  // .data also occupies FLASH as its load image, right after .rodata.
  const dataLoad = flash;
  const section = (name: string, address: number, size: number, type: string) => ({
    name,
    address,
    size,
    type,
    end_address: address + size,
  });
  const flashSections = [
    section(
      '.isr_vector',
      sectionInfo['.isr_vector']!.address,
      sectionInfo['.isr_vector']!.size,
      'rodata',
    ),
    section('.text', sectionInfo['.text']!.address, sectionInfo['.text']!.size, 'code'),
    section('.rodata', sectionInfo['.rodata']!.address, sectionInfo['.rodata']!.size, 'rodata'),
    section('.data', dataLoad, sectionInfo['.data']!.size, 'data'),
  ];
  const ramSections = [
    section('.data', sectionInfo['.data']!.address, sectionInfo['.data']!.size, 'data'),
    section('.bss', sectionInfo['.bss']!.address, sectionInfo['.bss']!.size, 'data'),
  ];
  const region = (
    address: number,
    limit: number,
    sections: ReportRegion['sections'],
  ): ReportRegion => {
    const used = sections.reduce((sum, s) => sum + s.size, 0);
    return {
      address,
      limit_size: limit,
      type: 'UNKNOWN',
      used_size: used,
      free_size: limit - used,
      utilization_percent: (used / limit) * 100,
      sections,
    };
  };
  return {
    file_path: 'build/firmware.elf',
    architecture: 'ARM',
    toolchain: 'gcc-12.2.1',
    entry_point: FLASH + 0x189,
    file_type: 'ET_EXEC',
    machine: 'EM_ARM',
    symbols: placed,
    program_headers: [],
    memory_layout: {
      FLASH: region(FLASH, 4 * 1024 * 1024, flashSections),
      RAM: region(RAM, 1024 * 1024, ramSections),
    },
  };
}

export interface CommitSpec {
  sha: string;
  parent: string | null;
  branch: string;
  target: string;
  time: Date;
  message: string;
  kind: 'full' | 'identical' | 'build_failed';
}

const EMPTY_REPORT: MemoryReport = {
  file_path: null,
  architecture: null,
  entry_point: null,
  file_type: null,
  machine: null,
  symbols: [],
  program_headers: [],
  memory_layout: {},
};

/** The upload body of one commit, as `memtrail upload` sends it. */
export function envelope(spec: CommitSpec, report: MemoryReport | null): UploadEnvelope {
  return {
    metadata: {
      git: {
        commit_hash: spec.sha,
        ...(spec.parent ? { base_commit_hash: spec.parent } : { parent_commit_hash: null }),
        branch_name: spec.branch,
        commit_message: spec.message,
        commit_timestamp: spec.time.toISOString(),
        author_name: 'Synthetic Developer',
        author_email: 'dev@example.com',
      },
      target_name: spec.target,
      analysis_version: 'synthetic',
      identical: spec.kind === 'identical',
      build_failed: spec.kind === 'build_failed',
    },
    memory_analysis: spec.kind === 'full' && report ? report : EMPTY_REPORT,
  };
}

/** A hex SHA unique per target label and index. */
export function shaOf(label: string, index: number): string {
  let h = 0x811c9dc5;
  for (const c of label) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return `${h.toString(16).padStart(8, '0')}${index.toString(16).padStart(32, '0')}`;
}
