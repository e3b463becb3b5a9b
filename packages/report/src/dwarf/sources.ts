import { ByteReader } from '../elf/byte-reader.js';
import { EM_ARM, type ElfFile } from '../elf/index.js';
import { type AbbrevTable, lookupAbbrev, parseAbbrevTable } from './abbrev.js';
import { DW_TAG } from './constants.js';
import { DieAttributes, readDieAttributes, skipDieAttributes } from './die.js';
import { DwarfParseError } from './errors.js';
import { addressAtIndex, readStringAt } from './forms.js';
import { type LineTable, filePath, parseLineTable, runLineProgram } from './line.js';
import { rangeStarts } from './ranges.js';
import { type DwarfSections, loadDwarfSections } from './sections.js';
import { type Unit, readUnitHeaders, unitAt } from './unit.js';

/** A symbol whose source location is wanted. `address` must already have the Thumb bit cleared. */
export interface SourceRequest {
  kind: 'function' | 'variable';
  address: number;
  /** Symbol name as stored in the ELF (mangled), used to pick among DIEs sharing an address. */
  name: string;
}

export interface SourceLocation {
  /** Path relative to the unit's compilation directory, absolute when outside it. */
  file: string;
  line: number;
}

export interface SourceOptions {
  /** Skip running line programs: functions then get their declaration line from the DIE. */
  skipLineProgram?: boolean;
}

interface Decl {
  name: string;
  linkageName: string;
  unit: Unit;
  file: number;
  line: number;
}

const MAX_REFERENCE_HOPS = 8;
const DW_UT_type = 2;
const DW_UT_split_type = 6;

/**
 * Resolves source locations from DWARF: functions from the line row at their first address
 * (falling back to the subprogram DIE), variables from the DIE whose DW_AT_location is their
 * address (decl_file/decl_line, following specification and abstract_origin). Returns one entry per
 * request, undefined where nothing is known.
 */
export function resolveSources(
  elf: ElfFile,
  requests: readonly SourceRequest[],
  options: SourceOptions = {},
): Array<SourceLocation | undefined> {
  const sections = loadDwarfSections(elf);
  if (sections.info.length === 0) return requests.map(() => undefined);
  return new SourceResolver(sections, requests, options, elf.machine === EM_ARM).run();
}

class SourceResolver {
  private readonly units: Unit[];
  private readonly abbrevTables = new Map<number, AbbrevTable>();
  private readonly lineTables = new Map<number, LineTable>();
  private readonly die = new DieAttributes();
  private readonly readers = new Map<Unit, ByteReader>();
  /** Function start → the line row there (null until found). */
  private readonly functionRows = new Map<
    number,
    { table: LineTable; file: number; line: number } | null
  >();
  /** Function start → offset of the subprogram DIE starting there. */
  private readonly functionDies = new Map<number, number>();
  /** Variable address → offsets of the variable DIEs located there. */
  private readonly variableDies = new Map<number, number[]>();

  constructor(
    private readonly sections: DwarfSections,
    private readonly requests: readonly SourceRequest[],
    private readonly options: SourceOptions,
    private readonly thumb: boolean,
  ) {
    this.units = readUnitHeaders(sections.info, sections.littleEndian);
    for (const request of requests) {
      if (request.kind === 'function') this.functionRows.set(request.address, null);
      else this.variableDies.set(request.address, []);
    }
  }

  run(): Array<SourceLocation | undefined> {
    for (const unit of this.units) {
      if (unit.unitType === DW_UT_type || unit.unitType === DW_UT_split_type) continue;
      this.scanUnit(unit);
    }
    if (!this.options.skipLineProgram && this.functionRows.size > 0) this.runLinePrograms();
    return this.requests.map((request) =>
      request.kind === 'function' ? this.functionSource(request) : this.variableSource(request),
    );
  }

  private abbrevs(unit: Unit): AbbrevTable {
    if (!unit.abbrevs) {
      let table = this.abbrevTables.get(unit.abbrevOffset);
      if (!table) {
        table = parseAbbrevTable(
          this.sections.abbrev,
          unit.abbrevOffset,
          this.sections.littleEndian,
        );
        this.abbrevTables.set(unit.abbrevOffset, table);
      }
      unit.abbrevs = table;
    }
    return unit.abbrevs;
  }

  /** The unit's reader, moved to `pos` (one per unit: DIEs are looked up by the ten thousand). */
  private reader(unit: Unit, pos: number): ByteReader {
    let r = this.readers.get(unit);
    if (!r) {
      r = new ByteReader(
        this.sections.info,
        this.sections.littleEndian,
        (m) => new DwarfParseError(`.debug_info unit at ${unit.offset}: ${m}`),
        pos,
        unit.end,
      );
      this.readers.set(unit, r);
    }
    r.pos = pos;
    return r;
  }

  /** Walks every DIE of the unit once, noting the DIEs that describe a requested address. */
  private scanUnit(unit: Unit): void {
    const table = this.abbrevs(unit);
    const r = this.reader(unit, unit.dieStart);
    const die = this.die;
    let first = true;
    while (r.pos < unit.end) {
      const offset = r.pos;
      const code = r.uleb();
      if (code === 0) continue;
      const abbrev = lookupAbbrev(table, code);
      if (!abbrev)
        throw new DwarfParseError(
          `.debug_info offset ${offset}: abbreviation code ${code} is not in the table at ${unit.abbrevOffset}`,
        );
      if (first) {
        readDieAttributes(r, unit, abbrev, die);
        this.applyUnitAttributes(unit, die);
        first = false;
      } else if (abbrev.tag === DW_TAG.variable) {
        readDieAttributes(r, unit, abbrev, die);
        if (die.location >= 0) {
          const address = die.locationIndexed
            ? addressAtIndex(this.sections, unit, die.location)
            : die.location;
          this.variableDies.get(address)?.push(offset);
        }
      } else if (abbrev.tag === DW_TAG.subprogram) {
        readDieAttributes(r, unit, abbrev, die);
        if (die.lowPc >= 0)
          this.noteFunctionDie(
            die.lowPcIndexed ? addressAtIndex(this.sections, unit, die.lowPc) : die.lowPc,
            offset,
          );
        if (die.ranges >= 0) {
          for (const start of rangeStarts(this.sections, unit, die.rangesForm, die.ranges))
            this.noteFunctionDie(start, offset);
        }
      } else {
        skipDieAttributes(r, unit, abbrev);
      }
    }
  }

  private noteFunctionDie(lowPc: number, offset: number): void {
    // The assembler writes a Thumb function's low_pc with bit 0 set, as in its symbol.
    const address = this.thumb ? lowPc - (lowPc % 2) : lowPc;
    if (this.functionRows.has(address) && !this.functionDies.has(address))
      this.functionDies.set(address, offset);
  }

  private applyUnitAttributes(unit: Unit, die: DieAttributes): void {
    if (die.strOffsetsBase >= 0) unit.strOffsetsBase = die.strOffsetsBase;
    if (die.addrBase >= 0) unit.addrBase = die.addrBase;
    if (die.rnglistsBase >= 0) unit.rnglistsBase = die.rnglistsBase;
    unit.stmtList = die.stmtList;
    if (die.lowPc >= 0)
      unit.lowPc = die.lowPcIndexed ? addressAtIndex(this.sections, unit, die.lowPc) : die.lowPc;
    if (die.namePos >= 0)
      unit.name = readStringAt(this.sections, unit, die.nameForm, this.sections.info, die.namePos);
    if (die.compDirPos >= 0)
      unit.compDir = readStringAt(
        this.sections,
        unit,
        die.compDirForm,
        this.sections.info,
        die.compDirPos,
      );
  }

  private lineTable(unit: Unit): LineTable | undefined {
    if (unit.stmtList < 0 || this.sections.line.length === 0) return undefined;
    let table = this.lineTables.get(unit.stmtList);
    if (!table) {
      table = parseLineTable(this.sections, unit.stmtList, unit);
      this.lineTables.set(unit.stmtList, table);
    }
    return table;
  }

  /**
   * Gives each requested function the line row at its first address, as addr2line reads rows: of
   * several rows at one address the last counts, and a row at a sequence's very end covers no
   * code (GCC leaves one at the end of a unit's code, where the next function may start).
   */
  private runLinePrograms(): void {
    const rows = this.functionRows;
    const done = new Set<number>();
    for (const unit of this.units) {
      const table = this.lineTable(unit);
      if (!table || done.has(table.offset)) continue;
      done.add(table.offset);
      let lastAddress = -1;
      let lastRow: { table: LineTable; file: number; line: number } | undefined;
      runLineProgram(this.sections.line, table, (address, file, line, endSequence) => {
        if (endSequence) {
          if (address === lastAddress && lastRow) rows.set(address, null);
          lastAddress = -1;
          lastRow = undefined;
          return;
        }
        if (address === lastAddress && lastRow) {
          lastRow.file = file;
          lastRow.line = line;
          return;
        }
        lastAddress = address;
        lastRow = undefined;
        if (rows.get(address) === null) {
          lastRow = { table, file, line };
          rows.set(address, lastRow);
        }
      });
    }
  }

  /** Reads the DIE at `offset` and the DIEs it refers to, until file, line and name are known. */
  private describe(offset: number): Decl | undefined {
    let result: Decl | undefined;
    let next = offset;
    for (let hop = 0; next >= 0 && hop <= MAX_REFERENCE_HOPS; hop++) {
      const unit = unitAt(this.units, next);
      if (!unit || next < unit.dieStart) return result;
      const r = this.reader(unit, next);
      const code = r.uleb();
      const abbrev = lookupAbbrev(this.abbrevs(unit), code);
      if (!abbrev)
        throw new DwarfParseError(
          `.debug_info offset ${next}: reference to a DIE with unknown abbreviation code ${code}`,
        );
      const die = this.die;
      readDieAttributes(r, unit, abbrev, die);
      const name =
        die.namePos >= 0
          ? readStringAt(this.sections, unit, die.nameForm, this.sections.info, die.namePos)
          : '';
      const linkageName =
        die.linkagePos >= 0
          ? readStringAt(this.sections, unit, die.linkageForm, this.sections.info, die.linkagePos)
          : '';
      if (!result) {
        result = { name, linkageName, unit, file: die.declFile, line: die.declLine };
      } else {
        if (!result.name) result.name = name;
        if (!result.linkageName) result.linkageName = linkageName;
        if (result.file < 0 && die.declFile >= 0) {
          result.file = die.declFile;
          result.unit = unit;
        }
        if (result.line < 0) result.line = die.declLine;
      }
      if (result.file >= 0 && result.line >= 0 && result.name) return result;
      next = die.specification >= 0 ? die.specification : die.abstractOrigin;
    }
    return result;
  }

  private declLocation(decl: Decl | undefined): SourceLocation | undefined {
    if (!decl || decl.file < 0) return undefined;
    const table = this.lineTable(decl.unit);
    const file = table && filePath(table, decl.file);
    return file ? { file, line: Math.max(decl.line, 0) } : undefined;
  }

  private functionSource(request: SourceRequest): SourceLocation | undefined {
    const row = this.functionRows.get(request.address);
    if (row) {
      const file = filePath(row.table, row.file);
      if (file) return { file, line: row.line };
    }
    const offset = this.functionDies.get(request.address);
    return offset === undefined ? undefined : this.declLocation(this.describe(offset));
  }

  private variableSource(request: SourceRequest): SourceLocation | undefined {
    const offsets = this.variableDies.get(request.address);
    if (!offsets || offsets.length === 0) return undefined;
    const decls = offsets
      .map((offset) => this.describe(offset))
      .filter((d): d is Decl => d !== undefined);
    // Several DIEs can share an address (aliases, zero-size objects, LTO duplicates): prefer the
    // one whose name matches the symbol, ignoring compiler suffixes such as ".0" or ".lto_priv.0".
    const base = request.name.split('.')[0];
    const match =
      decls.find((d) => d.linkageName === request.name || d.name === request.name) ??
      decls.find((d) => d.name === base || d.linkageName === base) ??
      (decls.length === 1 ? decls[0] : undefined);
    return this.declLocation(match);
  }
}
