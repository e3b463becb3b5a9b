/** Typed model of an ELF file: what the report needs, with obvious field names. */

export interface SectionFlags {
  alloc: boolean;
  write: boolean;
  exec: boolean;
  /** sh_flags as stored. */
  raw: number;
}

export interface ElfSection {
  index: number;
  name: string;
  /** sh_type as stored (SHT_PROGBITS = 1, SHT_NOBITS = 8, …). */
  type: number;
  /** pyelftools-style name of `type`, e.g. "SHT_PROGBITS". */
  typeName: string;
  flags: SectionFlags;
  /** Run address (sh_addr). */
  address: number;
  offset: number;
  size: number;
  link: number;
  info: number;
  addralign: number;
  entsize: number;
}

export interface ElfSegment {
  /** p_type as stored; `typeName` is the "PT_LOAD"-style name. */
  type: number;
  typeName: string;
  offset: number;
  virtAddr: number;
  physAddr: number;
  fileSize: number;
  memSize: number;
  /** p_flags as stored (PF_X = 1, PF_W = 2, PF_R = 4); `flagsString` is "RWX"-style. */
  flags: number;
  flagsString: string;
  align: number;
}

export interface ElfSymbol {
  name: string;
  /** st_value as stored: ARM Thumb functions keep bit 0 set. */
  value: number;
  size: number;
  /** "FUNC", "OBJECT", "NOTYPE", … (compat spec §2.1 spelling). */
  type: string;
  binding: string;
  visibility: string;
  /** st_shndx, resolved through SHT_SYMTAB_SHNDX for large section counts. */
  sectionIndex: number;
  /** Name of the defining section; "" for undefined, absolute and common symbols. */
  section: string;
}

export interface ElfFile {
  is64: boolean;
  littleEndian: boolean;
  /** e_type, and its "ET_EXEC"-style name. */
  fileType: number;
  fileTypeName: string;
  /** e_machine, its "EM_ARM"-style name, and the ISA name used as `architecture` (null if unlisted). */
  machine: number;
  machineName: string;
  architecture: string | null;
  entry: number;
  sections: ElfSection[];
  segments: ElfSegment[];
  /** Symbols of `.symtab`, or of `.dynsym` when the file has no `.symtab`; index 0 (null symbol) left out. */
  symbols: ElfSymbol[];
  symbolTable: '.symtab' | '.dynsym' | null;
  /** Toolchain from `.comment`, e.g. "gcc-12.2.1"; null when not recognised. */
  toolchain: string | null;
  /** The file's bytes inside a section (empty for NOBITS). */
  sectionData(section: ElfSection): Uint8Array;
  sectionByName(name: string): ElfSection | undefined;
}
