import { ByteReader, cString } from '../elf/byte-reader.js';
import { DW_FORM } from './constants.js';
import { DwarfParseError } from './errors.js';
import type { DwarfSections } from './sections.js';
import type { Unit } from './unit.js';

/** Size of a form's value when it is fixed for this unit; -1 when it depends on the data. */
export function fixedFormSize(
  form: number,
  unit: Pick<Unit, 'addrSize' | 'offsetSize' | 'version'>,
): number {
  switch (form) {
    case DW_FORM.flag_present:
    case DW_FORM.implicit_const:
      return 0;
    case DW_FORM.data1:
    case DW_FORM.ref1:
    case DW_FORM.flag:
    case DW_FORM.strx1:
    case DW_FORM.addrx1:
      return 1;
    case DW_FORM.data2:
    case DW_FORM.ref2:
    case DW_FORM.strx2:
    case DW_FORM.addrx2:
      return 2;
    case DW_FORM.strx3:
    case DW_FORM.addrx3:
      return 3;
    case DW_FORM.data4:
    case DW_FORM.ref4:
    case DW_FORM.strx4:
    case DW_FORM.addrx4:
    case DW_FORM.ref_sup4:
      return 4;
    case DW_FORM.data8:
    case DW_FORM.ref8:
    case DW_FORM.ref_sig8:
    case DW_FORM.ref_sup8:
      return 8;
    case DW_FORM.data16:
      return 16;
    case DW_FORM.addr:
      return unit.addrSize;
    case DW_FORM.ref_addr:
      return unit.version <= 2 ? unit.addrSize : unit.offsetSize;
    case DW_FORM.strp:
    case DW_FORM.line_strp:
    case DW_FORM.sec_offset:
    case DW_FORM.strp_sup:
    case DW_FORM.GNU_ref_alt:
    case DW_FORM.GNU_strp_alt:
      return unit.offsetSize;
    default:
      return -1;
  }
}

function isKnownForm(form: number): boolean {
  return (
    (form >= 0x01 && form <= 0x2c && form !== 0x02) ||
    (form >= 0x1f01 && form <= 0x1f02) ||
    (form >= 0x1f20 && form <= 0x1f21)
  );
}

/** Moves past one attribute value of `form`. */
export function skipForm(r: ByteReader, form: number, unit: Unit): void {
  const size = fixedFormSize(form, unit);
  if (size >= 0) {
    r.skip(size, 'attribute value');
    return;
  }
  switch (form) {
    case DW_FORM.string:
      r.skipCString();
      return;
    case DW_FORM.block1:
      r.skip(r.u8(), 'block');
      return;
    case DW_FORM.block2:
      r.skip(r.u16(), 'block');
      return;
    case DW_FORM.block4:
      r.skip(r.u32(), 'block');
      return;
    case DW_FORM.block:
    case DW_FORM.exprloc:
      r.skip(r.uleb(), 'block');
      return;
    case DW_FORM.sdata:
    case DW_FORM.udata:
    case DW_FORM.ref_udata:
    case DW_FORM.strx:
    case DW_FORM.addrx:
    case DW_FORM.loclistx:
    case DW_FORM.rnglistx:
    case DW_FORM.GNU_addr_index:
    case DW_FORM.GNU_str_index:
      r.skipLeb();
      return;
    case DW_FORM.indirect: {
      const actual = r.uleb();
      if (actual === DW_FORM.indirect || actual === DW_FORM.implicit_const)
        throw invalidForm(r, actual, 'inside DW_FORM_indirect');
      skipForm(r, actual, unit);
      return;
    }
    default:
      throw invalidForm(r, form, '');
  }
}

function invalidForm(r: ByteReader, form: number, where: string): DwarfParseError {
  return new DwarfParseError(
    `.debug_info offset ${r.pos}: invalid attribute form 0x${form.toString(16)}${where ? ' ' + where : ''}`,
  );
}

/**
 * Reads a constant, offset or index value; returns -1 (after skipping the value) for forms that
 * hold no such number (strings, blocks, 16-byte data, signatures).
 */
export function readUnsigned(
  r: ByteReader,
  form: number,
  unit: Unit,
  implicitConst: number,
): number {
  switch (form) {
    case DW_FORM.data1:
    case DW_FORM.ref1:
    case DW_FORM.flag:
    case DW_FORM.strx1:
    case DW_FORM.addrx1:
      return r.u8();
    case DW_FORM.data2:
    case DW_FORM.ref2:
    case DW_FORM.strx2:
    case DW_FORM.addrx2:
      return r.u16();
    case DW_FORM.strx3:
    case DW_FORM.addrx3:
      return r.u24();
    case DW_FORM.data4:
    case DW_FORM.ref4:
    case DW_FORM.strx4:
    case DW_FORM.addrx4:
    case DW_FORM.ref_sup4:
      return r.u32();
    case DW_FORM.data8:
    case DW_FORM.ref8:
    case DW_FORM.ref_sup8:
      return r.u64();
    case DW_FORM.addr:
      return r.uint(unit.addrSize);
    case DW_FORM.ref_addr:
      return r.uint(unit.version <= 2 ? unit.addrSize : unit.offsetSize);
    case DW_FORM.strp:
    case DW_FORM.line_strp:
    case DW_FORM.sec_offset:
    case DW_FORM.strp_sup:
    case DW_FORM.GNU_ref_alt:
    case DW_FORM.GNU_strp_alt:
      return r.uint(unit.offsetSize);
    case DW_FORM.udata:
    case DW_FORM.ref_udata:
    case DW_FORM.strx:
    case DW_FORM.addrx:
    case DW_FORM.loclistx:
    case DW_FORM.rnglistx:
    case DW_FORM.GNU_addr_index:
    case DW_FORM.GNU_str_index:
      return r.uleb();
    case DW_FORM.sdata:
      return r.sleb();
    case DW_FORM.implicit_const:
      return implicitConst;
    case DW_FORM.flag_present:
      return 1;
    case DW_FORM.indirect: {
      const actual = r.uleb();
      if (actual === DW_FORM.indirect || actual === DW_FORM.implicit_const)
        throw invalidForm(r, actual, 'inside DW_FORM_indirect');
      return readUnsigned(r, actual, unit, implicitConst);
    }
    default:
      if (!isKnownForm(form)) throw invalidForm(r, form, '');
      skipForm(r, form, unit);
      return -1;
  }
}

export function isAddrIndexForm(form: number): boolean {
  return (
    (form >= DW_FORM.addrx1 && form <= DW_FORM.addrx4) ||
    form === DW_FORM.addrx ||
    form === DW_FORM.GNU_addr_index
  );
}

export function isStrIndexForm(form: number): boolean {
  return (
    (form >= DW_FORM.strx1 && form <= DW_FORM.strx4) ||
    form === DW_FORM.strx ||
    form === DW_FORM.GNU_str_index
  );
}

/** Absolute `.debug_info` offset of a reference attribute; -1 for references into other files (sig8, supplementary). */
export function referenceTarget(form: number, value: number, unit: Unit): number {
  switch (form) {
    case DW_FORM.ref1:
    case DW_FORM.ref2:
    case DW_FORM.ref4:
    case DW_FORM.ref8:
    case DW_FORM.ref_udata:
      return unit.offset + value;
    case DW_FORM.ref_addr:
      return value;
    default:
      return -1;
  }
}

/** Entry `index` of the unit's `.debug_addr` table. */
export function addressAtIndex(sections: DwarfSections, unit: Unit, index: number): number {
  const offset = unit.addrBase + index * unit.addrSize;
  const r = new ByteReader(
    sections.addr,
    sections.littleEndian,
    (m) => new DwarfParseError(`.debug_addr index ${index} of unit ${unit.offset}: ${m}`),
    offset,
  );
  return r.uint(unit.addrSize);
}

/** String errors of one unit, made once: names are read by the ten thousand. */
const unitStringFails = new WeakMap<Unit, (message: string) => Error>();

function stringFail(unit: Unit): (message: string) => Error {
  let fail = unitStringFails.get(unit);
  if (!fail) {
    fail = (m) => new DwarfParseError(`string attribute of unit ${unit.offset}: ${m}`);
    unitStringFails.set(unit, fail);
  }
  return fail;
}

/** Decodes the string attribute whose value (of `form`) starts at `pos` in the section `source`. */
export function readStringAt(
  sections: DwarfSections,
  unit: Unit,
  form: number,
  source: Uint8Array,
  pos: number,
): string {
  const fail = stringFail(unit);
  if (form === DW_FORM.string) return cString(source, pos, fail);
  if (form === DW_FORM.strp && unit.offsetSize === 4 && pos + 4 <= source.length) {
    // The common case (GCC's names), read without a reader object.
    const b0 = source[pos]!;
    const b1 = source[pos + 1]!;
    const b2 = source[pos + 2]!;
    const b3 = source[pos + 3]!;
    const offset = sections.littleEndian
      ? (b0 | (b1 << 8) | (b2 << 16) | (b3 << 24)) >>> 0
      : ((b0 << 24) | (b1 << 16) | (b2 << 8) | b3) >>> 0;
    return cString(sections.str, offset, fail);
  }
  const r = new ByteReader(source, sections.littleEndian, fail, pos);
  const value = readUnsigned(r, form, unit, 0);
  if (form === DW_FORM.strp) return cString(sections.str, value, fail);
  if (form === DW_FORM.line_strp) return cString(sections.lineStr, value, fail);
  if (isStrIndexForm(form)) {
    const offsets = new ByteReader(
      sections.strOffsets,
      sections.littleEndian,
      fail,
      unit.strOffsetsBase + value * unit.offsetSize,
    );
    return cString(sections.str, offsets.uint(unit.offsetSize), fail);
  }
  // strp_sup / GNU_strp_alt point into a supplementary file we do not have.
  return '';
}
