import { readFileSync } from 'node:fs';
import type { MemoryReport, ProgramHeader, ReportRegion } from '@memtrail/contracts';
import { type ElfFile, type ElfSection, type ElfSegment, parseElf } from '../elf/index.js';
import { reportSymbols } from './symbols.js';

/** What region mapping receives: the allocated sections left after `--skip-section`, and the segments. */
export interface LayoutRequest {
  elf: ElfFile;
  sections: ElfSection[];
  segments: ElfSegment[];
  linkerScripts: string[];
  defs: string[];
  limits: string[];
  warn: (message: string) => void;
}

/** Builds `memory_layout` (region mapping lives in the layout module). */
export type LayoutBuilder = (request: LayoutRequest) => Record<string, ReportRegion>;

export interface GenerateReportOptions {
  /** ELF bytes, or a path to read them from. */
  elf: Uint8Array | string;
  /** `file_path` as the user wrote it; defaults to `elf` when that is a path. */
  filePath?: string;
  linkerScripts?: string[];
  /** `--def VAR=VALUE` entries. */
  defs?: string[];
  /** `--limits` scripts. */
  limits?: string[];
  /** `--skip-section` names (exact match). */
  skipSections?: string[];
  skipLineProgram?: boolean;
  buildLayout: LayoutBuilder;
  /** Receives warnings (e.g. skip-section names that are not in the ELF). */
  onWarning?: (message: string) => void;
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

/** Generates the membrowse-compatible report for one ELF. Parse errors surface as ElfParseError / DwarfParseError. */
export function generateReport(options: GenerateReportOptions): MemoryReport {
  const bytes = typeof options.elf === 'string' ? readFileSync(options.elf) : options.elf;
  const elf = parseElf(bytes);
  const warn = options.onWarning ?? (() => undefined);
  const skip = new Set(options.skipSections ?? []);
  for (const name of skip) {
    if (!elf.sectionByName(name))
      warn(`--skip-section ${name}: the ELF has no section of that name`);
  }
  const sections = elf.sections.filter((s) => s.flags.alloc && !skip.has(s.name));
  return {
    file_path: options.filePath ?? (typeof options.elf === 'string' ? options.elf : null),
    architecture: elf.architecture,
    toolchain: elf.toolchain,
    entry_point: elf.entry,
    file_type: elf.fileTypeName,
    machine: elf.machineName,
    symbols: reportSymbols(elf, skip, { skipLineProgram: options.skipLineProgram }),
    program_headers: programHeaders(elf.segments),
    memory_layout: options.buildLayout({
      elf,
      sections,
      segments: elf.segments,
      linkerScripts: options.linkerScripts ?? [],
      defs: options.defs ?? [],
      limits: options.limits ?? [],
      warn,
    }),
  };
}
