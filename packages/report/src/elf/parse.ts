import { ByteReader, cString } from './byte-reader.js';
import {
  SHF_ALLOC,
  SHF_EXECINSTR,
  SHF_WRITE,
  SHN_ABS,
  SHN_COMMON,
  SHN_LORESERVE,
  SHN_UNDEF,
  SHN_XINDEX,
  SHT_DYNSYM,
  SHT_NOBITS,
  SHT_SYMTAB,
  SHT_SYMTAB_SHNDX,
  architectureName,
  fileTypeName,
  machineName,
  sectionTypeName,
  segmentFlagsString,
  segmentTypeName,
  symbolBindingName,
  symbolTypeName,
  symbolVisibilityName,
} from './constants.js';
import { ElfParseError } from './errors.js';
import type { ElfFile, ElfSection, ElfSegment, ElfSymbol } from './model.js';
import { detectToolchain } from './toolchain.js';

const fail = (message: string) => new ElfParseError(message);

interface Header {
  is64: boolean;
  littleEndian: boolean;
  fileType: number;
  machine: number;
  entry: number;
  phoff: number;
  shoff: number;
  phentsize: number;
  phnum: number;
  shentsize: number;
  shnum: number;
  shstrndx: number;
}

function readHeader(bytes: Uint8Array): Header {
  if (
    bytes.length < 16 ||
    bytes[0] !== 0x7f ||
    bytes[1] !== 0x45 ||
    bytes[2] !== 0x4c ||
    bytes[3] !== 0x46
  ) {
    throw fail('not an ELF file: the first 4 bytes are not 0x7f "ELF"');
  }
  const elfClass = bytes[4];
  const data = bytes[5];
  if (elfClass !== 1 && elfClass !== 2)
    throw fail(`unknown ELF class ${elfClass} (expected 1 = 32-bit or 2 = 64-bit)`);
  if (data !== 1 && data !== 2)
    throw fail(`unknown ELF data encoding ${data} (expected 1 = little or 2 = big endian)`);
  const is64 = elfClass === 2;
  const r = new ByteReader(bytes, data === 1, (m) => fail(`ELF header: ${m}`), 16);
  const word = () => (is64 ? r.u64() : r.u32());
  const fileType = r.u16();
  const machine = r.u16();
  r.u32(); // e_version
  const entry = word();
  const phoff = word();
  const shoff = word();
  r.u32(); // e_flags
  r.u16(); // e_ehsize
  const phentsize = r.u16();
  const phnum = r.u16();
  const shentsize = r.u16();
  const shnum = r.u16();
  const shstrndx = r.u16();
  return {
    is64,
    littleEndian: data === 1,
    fileType,
    machine,
    entry,
    phoff,
    shoff,
    phentsize,
    phnum,
    shentsize,
    shnum,
    shstrndx,
  };
}

function checkTable(
  bytes: Uint8Array,
  what: string,
  offset: number,
  entsize: number,
  count: number,
  minEntsize: number,
): void {
  if (count === 0) return;
  if (entsize < minEntsize)
    throw fail(`${what}: entry size ${entsize} is smaller than ${minEntsize}`);
  if (offset + entsize * count > bytes.length) {
    throw fail(
      `${what}: ${count} entries of ${entsize} bytes at offset ${offset} run past the end of the file (${bytes.length} bytes)`,
    );
  }
}

function readRawSections(bytes: Uint8Array, h: Header): ElfSection[] {
  if (h.shoff === 0) return [];
  const r = new ByteReader(bytes, h.littleEndian, (m) => fail(`section headers: ${m}`), 0);
  // With more than 0xff00 sections the real count lives in section 0's sh_size (ELF gABI).
  let count = h.shnum;
  if (count === 0) {
    r.pos = h.shoff;
    r.skip(h.is64 ? 32 : 20, 'section header 0');
    count = h.is64 ? r.u64() : r.u32();
  }
  checkTable(bytes, 'section header table', h.shoff, h.shentsize, count, h.is64 ? 64 : 40);
  const sections: ElfSection[] = [];
  for (let i = 0; i < count; i++) {
    r.pos = h.shoff + i * h.shentsize;
    const nameOffset = r.u32();
    const type = r.u32();
    const flags = h.is64 ? r.u64() : r.u32();
    const address = h.is64 ? r.u64() : r.u32();
    const offset = h.is64 ? r.u64() : r.u32();
    const size = h.is64 ? r.u64() : r.u32();
    const link = r.u32();
    const info = r.u32();
    const addralign = h.is64 ? r.u64() : r.u32();
    const entsize = h.is64 ? r.u64() : r.u32();
    sections.push({
      index: i,
      name: String(nameOffset), // replaced once the name table is known
      type,
      typeName: sectionTypeName(type),
      flags: {
        alloc: (flags & SHF_ALLOC) !== 0,
        write: (flags & SHF_WRITE) !== 0,
        exec: (flags & SHF_EXECINSTR) !== 0,
        raw: flags,
      },
      address,
      offset,
      size,
      link,
      info,
      addralign,
      entsize,
    });
  }
  return sections;
}

function sectionBytes(bytes: Uint8Array, s: ElfSection): Uint8Array {
  if (s.type === SHT_NOBITS || s.size === 0) return new Uint8Array(0);
  if (s.offset + s.size > bytes.length) {
    throw fail(
      `section ${s.name || s.index}: ${s.size} bytes at offset ${s.offset} run past the end of the file (${bytes.length} bytes)`,
    );
  }
  return bytes.subarray(s.offset, s.offset + s.size);
}

function nameSections(bytes: Uint8Array, h: Header, sections: ElfSection[]): void {
  let index = h.shstrndx;
  if (index === SHN_XINDEX && sections[0]) index = sections[0].link;
  const table = sections[index];
  if (!table || index === 0) {
    for (const s of sections) s.name = '';
    return;
  }
  const strings = sectionBytes(bytes, table);
  for (const s of sections) {
    const offset = Number(s.name);
    s.name =
      s.index === 0
        ? ''
        : cString(strings, offset, (m) => fail(`name of section ${s.index}: ${m}`));
  }
}

function readSegments(bytes: Uint8Array, h: Header): ElfSegment[] {
  if (h.phoff === 0 || h.phnum === 0) return [];
  checkTable(bytes, 'program header table', h.phoff, h.phentsize, h.phnum, h.is64 ? 56 : 32);
  const r = new ByteReader(bytes, h.littleEndian, (m) => fail(`program headers: ${m}`), 0);
  const segments: ElfSegment[] = [];
  for (let i = 0; i < h.phnum; i++) {
    r.pos = h.phoff + i * h.phentsize;
    const type = r.u32();
    let flags = 0;
    if (h.is64) flags = r.u32();
    const offset = h.is64 ? r.u64() : r.u32();
    const virtAddr = h.is64 ? r.u64() : r.u32();
    const physAddr = h.is64 ? r.u64() : r.u32();
    const fileSize = h.is64 ? r.u64() : r.u32();
    const memSize = h.is64 ? r.u64() : r.u32();
    if (!h.is64) flags = r.u32();
    const align = h.is64 ? r.u64() : r.u32();
    segments.push({
      type,
      typeName: segmentTypeName(type, h.machine),
      offset,
      virtAddr,
      physAddr,
      fileSize,
      memSize,
      flags,
      flagsString: segmentFlagsString(flags),
      align,
    });
  }
  return segments;
}

function readSymbols(
  bytes: Uint8Array,
  h: Header,
  sections: ElfSection[],
  table: ElfSection,
): ElfSymbol[] {
  const strtab = sections[table.link];
  if (!strtab) throw fail(`${table.name}: linked string table ${table.link} does not exist`);
  const strings = sectionBytes(bytes, strtab);
  const data = sectionBytes(bytes, table);
  const entsize = table.entsize || (h.is64 ? 24 : 16);
  if (entsize < (h.is64 ? 24 : 16)) throw fail(`${table.name}: entry size ${entsize} is too small`);
  const xindexSection = sections.find((s) => s.type === SHT_SYMTAB_SHNDX && s.link === table.index);
  const xindex = xindexSection ? sectionBytes(bytes, xindexSection) : undefined;
  const xview = xindex
    ? new DataView(xindex.buffer, xindex.byteOffset, xindex.byteLength)
    : undefined;
  const r = new ByteReader(data, h.littleEndian, (m) => fail(`${table.name}: ${m}`));
  const count = Math.floor(data.length / entsize);
  const symbols: ElfSymbol[] = [];
  const nameFail = (m: string) => fail(`${table.name} symbol name: ${m}`);
  for (let i = 1; i < count; i++) {
    r.pos = i * entsize;
    let nameOffset: number, info: number, other: number, shndx: number, value: number, size: number;
    if (h.is64) {
      nameOffset = r.u32();
      info = r.u8();
      other = r.u8();
      shndx = r.u16();
      value = r.u64();
      size = r.u64();
    } else {
      nameOffset = r.u32();
      value = r.u32();
      size = r.u32();
      info = r.u8();
      other = r.u8();
      shndx = r.u16();
    }
    if (shndx === SHN_XINDEX && xview && (i + 1) * 4 <= xview.byteLength)
      shndx = xview.getUint32(i * 4, h.littleEndian);
    const isSpecial =
      shndx === SHN_UNDEF ||
      (shndx >= SHN_LORESERVE && shndx <= 0xffff && shndx !== SHN_XINDEX) ||
      shndx === SHN_ABS ||
      shndx === SHN_COMMON;
    symbols.push({
      name: nameOffset === 0 ? '' : cString(strings, nameOffset, nameFail),
      value,
      size,
      type: symbolTypeName(info),
      binding: symbolBindingName(info),
      visibility: symbolVisibilityName(other),
      sectionIndex: shndx,
      section: isSpecial ? '' : (sections[shndx]?.name ?? ''),
    });
  }
  return symbols;
}

/** Parses an ELF image held in memory. Throws ElfParseError on malformed input. */
export function parseElf(input: Uint8Array): ElfFile {
  // A plain Uint8Array view: slices of a Node Buffer would each allocate a Buffer object.
  const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  const h = readHeader(bytes);
  const sections = readRawSections(bytes, h);
  nameSections(bytes, h, sections);
  const segments = readSegments(bytes, h);
  const symtab = sections.find((s) => s.type === SHT_SYMTAB);
  const dynsym = symtab ? undefined : sections.find((s) => s.type === SHT_DYNSYM);
  const table = symtab ?? dynsym;
  const symbols = table ? readSymbols(bytes, h, sections, table) : [];
  const byName = new Map<string, ElfSection>();
  for (const s of sections) if (!byName.has(s.name)) byName.set(s.name, s);
  const comment = byName.get('.comment');
  return {
    is64: h.is64,
    littleEndian: h.littleEndian,
    fileType: h.fileType,
    fileTypeName: fileTypeName(h.fileType),
    machine: h.machine,
    machineName: machineName(h.machine),
    architecture: architectureName(h.machine),
    entry: h.entry,
    sections,
    segments,
    symbols,
    symbolTable: symtab ? '.symtab' : dynsym ? '.dynsym' : null,
    toolchain: comment ? detectToolchain(sectionBytes(bytes, comment)) : null,
    sectionData: (section) => sectionBytes(bytes, section),
    sectionByName: (name) => byName.get(name),
  };
}
