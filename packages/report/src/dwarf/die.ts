import type { ByteReader } from '../elf/byte-reader.js';
import type { Abbrev } from './abbrev.js';
import { DW_AT, DW_FORM, DW_OP_GNU_addr_index, DW_OP_addr, DW_OP_addrx } from './constants.js';
import { DwarfParseError } from './errors.js';
import {
  fixedFormSize,
  isAddrIndexForm,
  readUnsigned,
  referenceTarget,
  skipForm,
} from './forms.js';
import type { Unit } from './unit.js';

/**
 * The attributes of one DIE that source resolution uses. A single instance is reused for every
 * DIE (reset per DIE), so walking millions of DIEs allocates nothing per DIE. Strings are kept as
 * (form, position) and decoded only for the few DIEs that match a symbol.
 */
export class DieAttributes {
  tag = 0;
  nameForm = 0;
  namePos = -1;
  linkageForm = 0;
  linkagePos = -1;
  declFile = -1;
  declLine = -1;
  lowPc = -1;
  lowPcIndexed = false;
  rangesForm = 0;
  ranges = -1;
  /** Static address from a DW_OP_addr / DW_OP_addrx location, -1 otherwise. */
  location = -1;
  locationIndexed = false;
  /** Absolute `.debug_info` offsets of DW_AT_specification / DW_AT_abstract_origin, -1 when absent. */
  specification = -1;
  abstractOrigin = -1;
  compDirForm = 0;
  compDirPos = -1;
  stmtList = -1;
  strOffsetsBase = -1;
  addrBase = -1;
  rnglistsBase = -1;

  reset(tag: number): void {
    this.tag = tag;
    this.namePos = this.linkagePos = this.compDirPos = -1;
    this.declFile = this.declLine = this.lowPc = this.ranges = this.location = -1;
    this.lowPcIndexed = this.locationIndexed = false;
    this.specification = this.abstractOrigin = -1;
    this.stmtList = this.strOffsetsBase = this.addrBase = this.rnglistsBase = -1;
  }
}

function readLocation(r: ByteReader, form: number, unit: Unit, die: DieAttributes): void {
  let length: number;
  switch (form) {
    case DW_FORM.exprloc:
    case DW_FORM.block:
      length = r.uleb();
      break;
    case DW_FORM.block1:
      length = r.u8();
      break;
    case DW_FORM.block2:
      length = r.u16();
      break;
    case DW_FORM.block4:
      length = r.u32();
      break;
    default:
      // A location list: the object moves, so it has no single static address.
      skipForm(r, form, unit);
      return;
  }
  r.need(length, 'location expression');
  const start = r.pos;
  const end = start + length;
  if (length > 0) {
    const op = r.bytes[start];
    r.pos = start + 1;
    if (op === DW_OP_addr && length === 1 + unit.addrSize) {
      die.location = r.uint(unit.addrSize);
    } else if (op === DW_OP_addrx || op === DW_OP_GNU_addr_index) {
      const index = r.uleb();
      if (r.pos === end) {
        die.location = index;
        die.locationIndexed = true;
      }
    }
  }
  r.pos = end;
}

/** Reads the attributes of `abbrev` at the reader's position into `die`. */
export function readDieAttributes(
  r: ByteReader,
  unit: Unit,
  abbrev: Abbrev,
  die: DieAttributes,
): void {
  die.reset(abbrev.tag);
  const { names, forms, consts } = abbrev;
  for (let i = 0; i < names.length; i++) {
    let form = forms[i]!;
    if (form === DW_FORM.indirect) {
      form = r.uleb();
      if (form === DW_FORM.indirect || form === DW_FORM.implicit_const) {
        throw new DwarfParseError(
          `.debug_info offset ${r.pos}: invalid form 0x${form.toString(16)} inside DW_FORM_indirect`,
        );
      }
    }
    switch (names[i]) {
      case DW_AT.name:
        die.nameForm = form;
        die.namePos = r.pos;
        skipForm(r, form, unit);
        break;
      case DW_AT.linkage_name:
      case DW_AT.MIPS_linkage_name:
        die.linkageForm = form;
        die.linkagePos = r.pos;
        skipForm(r, form, unit);
        break;
      case DW_AT.comp_dir:
        die.compDirForm = form;
        die.compDirPos = r.pos;
        skipForm(r, form, unit);
        break;
      case DW_AT.decl_file:
        die.declFile = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.decl_line:
        die.declLine = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.low_pc:
        die.lowPcIndexed = isAddrIndexForm(form);
        die.lowPc = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.ranges:
        die.rangesForm = form;
        die.ranges = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.location:
        readLocation(r, form, unit, die);
        break;
      case DW_AT.specification:
        die.specification = referenceTarget(form, readUnsigned(r, form, unit, 0), unit);
        break;
      case DW_AT.abstract_origin:
        die.abstractOrigin = referenceTarget(form, readUnsigned(r, form, unit, 0), unit);
        break;
      case DW_AT.stmt_list:
        die.stmtList = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.str_offsets_base:
        die.strOffsetsBase = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.addr_base:
      case DW_AT.GNU_addr_base:
        die.addrBase = readUnsigned(r, form, unit, consts[i]!);
        break;
      case DW_AT.rnglists_base:
      case DW_AT.GNU_ranges_base:
        die.rnglistsBase = readUnsigned(r, form, unit, consts[i]!);
        break;
      default:
        skipForm(r, form, unit);
    }
  }
}

/** Moves past the attributes of `abbrev`, in one step when all its forms have a fixed size. */
export function skipDieAttributes(r: ByteReader, unit: Unit, abbrev: Abbrev): void {
  const key = unit.version * 256 + unit.addrSize * 16 + unit.offsetSize;
  if (abbrev.sizeKey !== key) {
    let size = 0;
    for (const form of abbrev.forms) {
      const s = fixedFormSize(form, unit);
      if (s < 0) {
        size = -1;
        break;
      }
      size += s;
    }
    abbrev.fixedSize = size;
    abbrev.sizeKey = key;
  }
  if (abbrev.fixedSize >= 0) {
    r.skip(abbrev.fixedSize, 'DIE attributes');
    return;
  }
  for (const form of abbrev.forms) skipForm(r, form, unit);
}
