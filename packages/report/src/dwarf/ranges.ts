import { ByteReader } from '../elf/byte-reader.js';
import { DW_FORM } from './constants.js';
import { DwarfParseError } from './errors.js';
import { addressAtIndex } from './forms.js';
import type { DwarfSections } from './sections.js';
import type { Unit } from './unit.js';

/**
 * Start addresses of the ranges of a DW_AT_ranges attribute (`.debug_ranges` before DWARF 5,
 * `.debug_rnglists` from 5 on). Empty ranges are left out.
 */
export function rangeStarts(
  sections: DwarfSections,
  unit: Unit,
  form: number,
  value: number,
): number[] {
  return unit.version >= 5
    ? rnglistStarts(sections, unit, form, value)
    : debugRangesStarts(sections, unit, value);
}

function debugRangesStarts(sections: DwarfSections, unit: Unit, offset: number): number[] {
  const fail = (m: string) => new DwarfParseError(`.debug_ranges list at ${offset}: ${m}`);
  const r = new ByteReader(sections.ranges, sections.littleEndian, fail, offset);
  const size = unit.addrSize;
  const maxAddress = size === 8 ? 2 ** 64 - 1 : 2 ** (size * 8) - 1;
  let base = unit.lowPc;
  const starts: number[] = [];
  for (;;) {
    const start = r.uint(size);
    const end = r.uint(size);
    if (start === 0 && end === 0) return starts;
    if (start === maxAddress) base = end;
    else if (end > start) starts.push(base + start);
  }
}

function rnglistStarts(sections: DwarfSections, unit: Unit, form: number, value: number): number[] {
  let offset = value;
  if (form === DW_FORM.rnglistx) {
    const index = new ByteReader(
      sections.rnglists,
      sections.littleEndian,
      (m) => new DwarfParseError(`.debug_rnglists index ${value}: ${m}`),
      unit.rnglistsBase + value * unit.offsetSize,
    );
    offset = unit.rnglistsBase + index.uint(unit.offsetSize);
  }
  const fail = (m: string) => new DwarfParseError(`.debug_rnglists list at ${offset}: ${m}`);
  const r = new ByteReader(sections.rnglists, sections.littleEndian, fail, offset);
  const addr = () => r.uint(unit.addrSize);
  const indexed = () => addressAtIndex(sections, unit, r.uleb());
  let base = unit.lowPc;
  const starts: number[] = [];
  const add = (start: number, end: number) => {
    if (end > start) starts.push(start);
  };
  for (;;) {
    const kind = r.u8();
    switch (kind) {
      case 0: // end_of_list
        return starts;
      case 1: // base_addressx
        base = indexed();
        break;
      case 2: {
        const start = indexed();
        add(start, indexed());
        break;
      }
      case 3: {
        const start = indexed();
        add(start, start + r.uleb());
        break;
      }
      case 4: {
        const start = base + r.uleb();
        add(start, base + r.uleb());
        break;
      }
      case 5:
        base = addr();
        break;
      case 6: {
        const start = addr();
        add(start, addr());
        break;
      }
      case 7: {
        const start = addr();
        add(start, start + r.uleb());
        break;
      }
      default:
        throw fail(`unknown range list entry kind ${kind} at ${r.pos - 1}`);
    }
  }
}
