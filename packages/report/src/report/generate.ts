import { readFileSync } from 'node:fs';
import type { MemoryReport, ProgramHeader } from '@memtrail/contracts';
import { SHF_TLS, SHT_NOBITS } from '../elf/constants.js';
import { type ElfFile, type ElfSegment, parseElf } from '../elf/index.js';
import { type LayoutSection, type MemoryLayoutRegion, buildMemoryLayout } from '../layout/index.js';
import { type LayoutImage, loadLayout } from '../layouts/index.js';
import { parseMapFile } from '../mapfile/index.js';
import { reportSymbols } from './symbols.js';

export interface GenerateReportOptions {
  /** ELF bytes, or a path to read them from. */
  elf: Uint8Array | string;
  /** `file_path` as the user wrote it; defaults to `elf` when that is a path. */
  filePath?: string;
  /**
   * Linker configuration (GNU ld scripts, IAR ICF files or an Arm scatter file, detected) giving
   * the memory regions; none means the default Code/Data regions.
   */
  linkerScripts?: string[];
  /** `--def VAR=VALUE` entries. */
  defs?: string[];
  /** `--limits` scripts: the real LENGTH of each region. */
  limits?: string[];
  /** `--skip-section` names (exact match). */
  skipSections?: string[];
  /** `--map-file`: GNU ld or LLD map filling `archive` and `object_file`. */
  mapFile?: string;
  skipLineProgram?: boolean;
  /** Directory that relative script paths and INCLUDEs resolve against (default: process.cwd()). */
  cwd?: string;
  /** `-L` directories searched for INCLUDEd scripts after `cwd`, as ld does. */
  searchPaths?: string[];
  /** Receives warnings (unknown skip-section names, default regions, linker-script notes). */
  onWarning?: (message: string) => void;
}

/** `memory_layout` regions may carry nesting details beyond the MemBrowse fields. */
export interface GeneratedReport extends MemoryReport {
  memory_layout: Record<string, MemoryLayoutRegion>;
}

function programHeaders(segments: ElfSegment[]): ProgramHeader[] {
  return segments.map((s) => ({
    type: s.typeName,
    offset: s.offset,
    virt_addr: s.virtAddr,
    phys_addr: s.physAddr,
    file_size: s.fileSize,
    mem_size: s.memSize,
    flags: s.flagsString,
    align: s.align,
  }));
}

/** `NAME=VALUE` → [NAME, VALUE]. */
function definitions(defs: string[]): Array<[string, string]> {
  return defs.map((def) => {
    const eq = def.indexOf('=');
    return [def.slice(0, eq), def.slice(eq + 1)];
  });
}

function layoutSections(elf: ElfFile): LayoutSection[] {
  return elf.sections.map((s) => ({
    name: s.name,
    type: s.type === SHT_NOBITS ? 'NOBITS' : s.typeName.replace(/^SHT_/, ''),
    flags: { ...s.flags, tls: (s.flags.raw & SHF_TLS) !== 0 },
    address: s.address,
    size: s.size,
    alignment: s.addralign,
    offset: s.offset,
  }));
}

/** What linker configurations need from the ELF: sections, segments, global symbols, headers. */
export function elfLayoutImage(elf: ElfFile): LayoutImage {
  // Built on first use: only scatter files ask (`defined(symbol)`).
  let defined: Set<string> | undefined;
  return {
    sections: layoutSections(elf),
    segments: elf.segments.map((s) => ({
      type: s.typeName,
      virtAddr: s.virtAddr,
      physAddr: s.physAddr,
      fileSize: s.fileSize,
      memSize: s.memSize,
      offset: s.offset,
      flags: s.flagsString,
    })),
    hasSymbol: (name) =>
      (defined ??= new Set(
        elf.symbols.filter((s) => s.binding !== 'LOCAL' && s.sectionIndex !== 0).map((s) => s.name),
      )).has(name),
    headerSize: elf.is64 ? 64 + 56 * elf.segments.length : 52 + 32 * elf.segments.length,
  };
}

function memoryLayout(
  elf: ElfFile,
  options: GenerateReportOptions,
  warn: (m: string) => void,
): Record<string, MemoryLayoutRegion> {
  const scripts = options.linkerScripts ?? [];
  const defs = options.defs ?? [];
  const limits = options.limits ?? [];
  if (limits.length > 0 && scripts.length === 0)
    throw new Error('--limits needs the primary linker scripts as well');
  const image = elfLayoutImage(elf);
  const load = (files: string[]) => {
    const layout = loadLayout({
      files,
      definitions: definitions(defs),
      cwd: options.cwd,
      searchPaths: options.searchPaths,
      addressBits: elf.is64 ? 64 : 32,
      image,
    });
    layout.warnings.forEach(warn);
    return layout;
  };
  const layout = scripts.length > 0 ? load(scripts) : undefined;
  const result = buildMemoryLayout({
    sections: image.sections,
    segments: image.segments,
    regions: layout?.regions,
    limits: limits.length > 0 ? load(limits).regions : undefined,
    skipSections: options.skipSections,
    assignments: layout?.assignments,
    ...(layout && { usage: layout.usage }),
  });
  result.warnings.forEach(warn);
  return result.memoryLayout;
}

/**
 * Generates the MemBrowse-compatible report for one ELF. Malformed input surfaces as
 * ElfParseError / DwarfParseError, linker-script problems as LinkerScriptError / LayoutError.
 */
export function generateReport(options: GenerateReportOptions): GeneratedReport {
  const bytes = typeof options.elf === 'string' ? readFileSync(options.elf) : options.elf;
  const elf = parseElf(bytes);
  const warn = options.onWarning ?? (() => undefined);
  const skip = new Set(options.skipSections ?? []);
  const allocated = new Set(elf.sections.filter((s) => s.flags.alloc).map((s) => s.name));
  const attribution = options.mapFile
    ? parseMapFile(readFileSync(options.mapFile, 'utf8'), { allocatedSections: allocated })
    : undefined;
  return {
    file_path: options.filePath ?? (typeof options.elf === 'string' ? options.elf : null),
    architecture: elf.architecture,
    toolchain: elf.toolchain,
    entry_point: elf.entry,
    file_type: elf.fileTypeName,
    machine: elf.machineName,
    symbols: reportSymbols(elf, skip, { skipLineProgram: options.skipLineProgram }, attribution),
    program_headers: programHeaders(elf.segments),
    memory_layout: memoryLayout(elf, options, warn),
  };
}
