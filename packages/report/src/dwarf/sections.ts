import { inflateSync } from 'node:zlib';
import type { ElfFile, ElfSection } from '../elf/index.js';
import { DwarfParseError } from './errors.js';

const SHF_COMPRESSED = 0x800;
const ELFCOMPRESS_ZLIB = 1;
const EMPTY = new Uint8Array(0);

/** The DWARF sections of one ELF file (empty arrays for absent ones), decompressed when needed. */
export interface DwarfSections {
  littleEndian: boolean;
  info: Uint8Array;
  abbrev: Uint8Array;
  str: Uint8Array;
  strOffsets: Uint8Array;
  lineStr: Uint8Array;
  addr: Uint8Array;
  ranges: Uint8Array;
  rnglists: Uint8Array;
  line: Uint8Array;
}

function sectionContents(elf: ElfFile, section: ElfSection | undefined): Uint8Array {
  if (!section) return EMPTY;
  const data = elf.sectionData(section);
  if ((section.flags.raw & SHF_COMPRESSED) === 0) return data;
  // Elf32_Chdr / Elf64_Chdr: ch_type first, the payload after the header.
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const headerSize = elf.is64 ? 24 : 12;
  if (data.length < headerSize)
    throw new DwarfParseError(`${section.name}: compressed section shorter than its header`);
  const type = view.getUint32(0, elf.littleEndian);
  if (type !== ELFCOMPRESS_ZLIB)
    throw new DwarfParseError(
      `${section.name}: unsupported compression type ${type} (only zlib is supported)`,
    );
  try {
    return inflateSync(data.subarray(headerSize));
  } catch (error) {
    throw new DwarfParseError(
      `${section.name}: zlib data is corrupt (${(error as Error).message})`,
    );
  }
}

export function loadDwarfSections(elf: ElfFile): DwarfSections {
  const get = (name: string) => sectionContents(elf, elf.sectionByName(name));
  return {
    littleEndian: elf.littleEndian,
    info: get('.debug_info'),
    abbrev: get('.debug_abbrev'),
    str: get('.debug_str'),
    strOffsets: get('.debug_str_offsets'),
    lineStr: get('.debug_line_str'),
    addr: get('.debug_addr'),
    ranges: get('.debug_ranges'),
    rnglists: get('.debug_rnglists'),
    line: get('.debug_line'),
  };
}
