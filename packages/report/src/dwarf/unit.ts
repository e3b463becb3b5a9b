import { ByteReader } from '../elf/byte-reader.js';
import type { AbbrevTable } from './abbrev.js';
import { DwarfParseError } from './errors.js';

/** A unit header of `.debug_info` plus the unit DIE attributes that later decoding depends on. */
export interface Unit {
  /** Offset of the unit header in `.debug_info`; `ref1…ref_udata` values are relative to it. */
  offset: number;
  /** Offset of the first DIE and one past the unit's last byte. */
  dieStart: number;
  end: number;
  version: number;
  /** DW_UT_* (DWARF 5); DW_UT_compile (1) for older units. */
  unitType: number;
  addrSize: number;
  /** 4 for 32-bit DWARF, 8 for 64-bit DWARF. */
  offsetSize: number;
  abbrevOffset: number;
  abbrevs: AbbrevTable | undefined;
  strOffsetsBase: number;
  addrBase: number;
  rnglistsBase: number;
  name: string;
  compDir: string;
  /** Offset of the unit's line program in `.debug_line`, -1 when it has none. */
  stmtList: number;
  /** Base address for `.debug_ranges` / DW_RLE_offset_pair (DW_AT_low_pc), 0 when absent. */
  lowPc: number;
}

const DW_UT_type = 2;
const DW_UT_skeleton = 4;
const DW_UT_split_compile = 5;
const DW_UT_split_type = 6;

/** Reads every unit header of `.debug_info` (cheap: one jump per unit). */
export function readUnitHeaders(info: Uint8Array, littleEndian: boolean): Unit[] {
  const units: Unit[] = [];
  let offset = 0;
  while (offset < info.length) {
    const fail = (m: string) => new DwarfParseError(`.debug_info unit at ${offset}: ${m}`);
    const r = new ByteReader(info, littleEndian, fail, offset);
    let length = r.u32();
    let offsetSize = 4;
    if (length === 0xffffffff) {
      length = r.u64();
      offsetSize = 8;
    } else if (length >= 0xfffffff0) {
      throw fail(`reserved unit length 0x${length.toString(16)}`);
    }
    const end = r.pos + length;
    if (end > info.length)
      throw fail(`unit length ${length} runs past the end of the section (${info.length} bytes)`);
    const version = r.u16();
    if (version < 2 || version > 5) throw fail(`unsupported DWARF version ${version}`);
    let unitType = 1;
    let addrSize: number;
    let abbrevOffset: number;
    if (version >= 5) {
      unitType = r.u8();
      addrSize = r.u8();
      abbrevOffset = r.uint(offsetSize);
      if (unitType === DW_UT_skeleton || unitType === DW_UT_split_compile) r.skip(8, 'dwo_id');
      else if (unitType === DW_UT_type || unitType === DW_UT_split_type)
        r.skip(8 + offsetSize, 'type signature and offset');
    } else {
      abbrevOffset = r.uint(offsetSize);
      addrSize = r.u8();
    }
    if (addrSize !== 2 && addrSize !== 4 && addrSize !== 8)
      throw fail(`unsupported address size ${addrSize}`);
    if (r.pos > end) throw fail('unit header is longer than the unit');
    units.push({
      offset,
      dieStart: r.pos,
      end,
      version,
      unitType,
      addrSize,
      offsetSize,
      abbrevOffset,
      abbrevs: undefined,
      // DWARF 5 default: the str_offsets / addr header sizes, used when the unit DIE gives no base.
      strOffsetsBase: offsetSize === 8 ? 16 : 8,
      addrBase: offsetSize === 8 ? 16 : 8,
      rnglistsBase: 0,
      name: '',
      compDir: '',
      stmtList: -1,
      lowPc: 0,
    });
    offset = end;
  }
  return units;
}

/** The unit containing `.debug_info` offset `offset` (units are sorted by offset). */
export function unitAt(units: Unit[], offset: number): Unit | undefined {
  let lo = 0;
  let hi = units.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const u = units[mid]!;
    if (offset < u.offset) hi = mid - 1;
    else if (offset >= u.end) lo = mid + 1;
    else return u;
  }
  return undefined;
}
