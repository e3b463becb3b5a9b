import { posix } from 'node:path';
import { ByteReader } from '../elf/byte-reader.js';
import { DW_FORM, DW_LNCT_directory_index, DW_LNCT_path } from './constants.js';
import { DwarfParseError } from './errors.js';
import { readStringAt, readUnsigned, skipForm } from './forms.js';
import type { DwarfSections } from './sections.js';
import type { Unit } from './unit.js';

/** The header of one line program: file table and decoding parameters. */
export interface LineTable {
  offset: number;
  /** Version of THIS line table, which decides file numbering (the compat spec §4.3). */
  version: number;
  /** Number of the first file entry: 0 for version 5 tables, 1 before. */
  fileBase: number;
  /** dirs[0] is the compilation directory for every version. */
  dirs: string[];
  files: Array<{ name: string; dir: number }>;
  compDir: string;
  minInstLength: number;
  lineBase: number;
  lineRange: number;
  opcodeBase: number;
  standardLengths: number[];
  addrSize: number;
  programStart: number;
  programEnd: number;
  littleEndian: boolean;
  /** filePath results by file number: thousands of symbols share a few files. */
  pathCache: Map<number, string | undefined>;
}

function readEntryFormats(r: ByteReader): Array<[number, number]> {
  const count = r.u8();
  const formats: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) formats.push([r.uleb(), r.uleb()]);
  return formats;
}

/** Parses the header of the line program at `offset`, read in the context of the unit that refers to it. */
export function parseLineTable(sections: DwarfSections, offset: number, unit: Unit): LineTable {
  const fail = (m: string) => new DwarfParseError(`.debug_line program at ${offset}: ${m}`);
  const data = sections.line;
  if (offset >= data.length) throw fail(`offset is outside the section (${data.length} bytes)`);
  const r = new ByteReader(data, sections.littleEndian, fail, offset);
  let length = r.u32();
  let offsetSize = 4;
  if (length === 0xffffffff) {
    length = r.u64();
    offsetSize = 8;
  }
  const end = r.pos + length;
  if (end > data.length)
    throw fail(`length ${length} runs past the end of the section (${data.length} bytes)`);
  const version = r.u16();
  if (version < 2 || version > 5) throw fail(`unsupported line table version ${version}`);
  let addrSize = unit.addrSize;
  if (version >= 5) {
    addrSize = r.u8();
    r.u8(); // segment selector size
  }
  const headerLength = r.uint(offsetSize);
  const programStart = r.pos + headerLength;
  if (programStart > end) throw fail(`header length ${headerLength} runs past the table`);
  const minInstLength = r.u8();
  if (version >= 4) r.u8(); // maximum_operations_per_instruction: VLIW only, treated as 1
  r.u8(); // default_is_stmt
  const lineBase = r.i8();
  const lineRange = r.u8();
  const opcodeBase = r.u8();
  if (lineRange === 0) throw fail('line_range is 0');
  const standardLengths: number[] = [];
  for (let i = 1; i < opcodeBase; i++) standardLengths.push(r.u8());
  const compDir = unit.compDir;
  const dirs: string[] = [compDir];
  const files: Array<{ name: string; dir: number }> = [];
  const header = new ByteReader(data, sections.littleEndian, fail, r.pos, programStart);
  if (version < 5) {
    for (;;) {
      const start = header.skipCString();
      if (start + 1 === header.pos) break;
      dirs.push(readStringAt(sections, unit, DW_FORM.string, data, start));
    }
    for (;;) {
      const start = header.skipCString();
      if (start + 1 === header.pos) break;
      const name = readStringAt(sections, unit, DW_FORM.string, data, start);
      const dir = header.uleb();
      header.skipLeb();
      header.skipLeb();
      files.push({ name, dir });
    }
  } else {
    // Forms inside the header use the line table's own offset size.
    const ctx: Unit = { ...unit, offsetSize, addrSize };
    const dirFormats = readEntryFormats(header);
    const dirCount = header.uleb();
    dirs.length = 0;
    for (let i = 0; i < dirCount; i++) {
      let dir = '';
      for (const [content, form] of dirFormats) {
        if (content === DW_LNCT_path) dir = readStringAt(sections, ctx, form, data, header.pos);
        skipForm(header, form, ctx);
      }
      dirs.push(dir);
    }
    if (dirs.length === 0) dirs.push(compDir);
    const fileFormats = readEntryFormats(header);
    const fileCount = header.uleb();
    for (let i = 0; i < fileCount; i++) {
      let name = '';
      let dir = 0;
      for (const [content, form] of fileFormats) {
        if (content === DW_LNCT_path) {
          name = readStringAt(sections, ctx, form, data, header.pos);
          skipForm(header, form, ctx);
        } else if (content === DW_LNCT_directory_index) {
          dir = readUnsigned(header, form, ctx, 0);
        } else {
          skipForm(header, form, ctx);
        }
      }
      files.push({ name, dir });
    }
  }
  return {
    offset,
    version,
    fileBase: version >= 5 ? 0 : 1,
    dirs,
    files,
    compDir,
    minInstLength,
    lineBase,
    lineRange,
    opcodeBase,
    standardLengths,
    addrSize,
    programStart,
    programEnd: end,
    littleEndian: sections.littleEndian,
    pathCache: new Map(),
  };
}

/**
 * Path of file number `index` of the table, relative to the compilation directory when it lies
 * inside it, absolute otherwise; undefined for numbers the table does not have.
 */
export function filePath(table: LineTable, index: number): string | undefined {
  if (table.pathCache.has(index)) return table.pathCache.get(index);
  const path = computeFilePath(table, index);
  table.pathCache.set(index, path);
  return path;
}

function computeFilePath(table: LineTable, index: number): string | undefined {
  const entry = table.files[index - table.fileBase];
  if (!entry || !entry.name) return undefined;
  let full = entry.name;
  if (!posix.isAbsolute(full)) {
    let dir = table.dirs[entry.dir] ?? '';
    if (!posix.isAbsolute(dir) && table.compDir) dir = posix.join(table.compDir, dir);
    full = posix.join(dir, full);
  }
  full = posix.normalize(full);
  if (table.compDir && posix.isAbsolute(full)) {
    const rel = posix.relative(table.compDir, full);
    if (rel && !rel.startsWith('..') && !posix.isAbsolute(rel)) return rel;
  }
  return full;
}

/**
 * Receives every row of a line program; `endSequence` marks the row one past a sequence's code
 * (its file and line mean nothing).
 */
export type RowVisitor = (
  address: number,
  file: number,
  line: number,
  endSequence: boolean,
) => void;

/**
 * Runs the line program and calls `visit` for every row. Each opcode consumes at least one byte,
 * so corrupt programs end at the table end instead of looping.
 */
export function runLineProgram(
  sectionsLine: Uint8Array,
  table: LineTable,
  visit: RowVisitor,
): void {
  const fail = (m: string) => new DwarfParseError(`.debug_line program at ${table.offset}: ${m}`);
  const r = new ByteReader(
    sectionsLine,
    table.littleEndian,
    fail,
    table.programStart,
    table.programEnd,
  );
  const { minInstLength, lineBase, lineRange, opcodeBase, standardLengths } = table;
  let address = 0;
  let file = 1;
  let line = 1;
  const data = sectionsLine;
  while (r.pos < table.programEnd) {
    const opcode = data[r.pos++]!;
    if (opcode >= opcodeBase) {
      const adjusted = opcode - opcodeBase;
      address += Math.floor(adjusted / lineRange) * minInstLength;
      line += lineBase + (adjusted % lineRange);
      visit(address, file, line, false);
      continue;
    }
    switch (opcode) {
      case 0: {
        const len = r.uleb();
        const next = r.pos + len;
        if (len === 0 || next > table.programEnd)
          throw fail(`extended opcode length ${len} at ${r.pos} runs past the program`);
        const sub = r.u8();
        if (sub === 1) {
          visit(address, file, line, true);
          address = 0;
          file = 1;
          line = 1;
        } else if (sub === 2) {
          address = r.uint(len - 1);
        } else if (sub === 3 && table.version < 5) {
          // DW_LNE_define_file adds a file entry mid-program.
          const start = r.skipCString();
          const name = new TextDecoder().decode(data.subarray(start, r.pos - 1));
          const dir = r.uleb();
          table.files.push({ name, dir });
          table.pathCache.clear();
        }
        r.pos = next;
        break;
      }
      case 1: // copy
        visit(address, file, line, false);
        break;
      case 2: // advance_pc
        address += r.uleb() * minInstLength;
        break;
      case 3: // advance_line
        line += r.sleb();
        break;
      case 4: // set_file
        file = r.uleb();
        break;
      case 8: // const_add_pc
        address += Math.floor((255 - opcodeBase) / lineRange) * minInstLength;
        break;
      case 9: // fixed_advance_pc
        address += r.u16();
        break;
      default: {
        // set_column, negate_stmt, basic_block, prologue_end, epilogue_begin, set_isa and unknown
        // standard opcodes: skip their LEB128 operands as the header declares.
        const operands = standardLengths[opcode - 1] ?? 0;
        for (let i = 0; i < operands; i++) r.skipLeb();
      }
    }
  }
}
