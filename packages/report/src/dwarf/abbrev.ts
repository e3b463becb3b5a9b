import { ByteReader } from '../elf/byte-reader.js';
import { DW_FORM } from './constants.js';
import { DwarfParseError } from './errors.js';

/** One abbreviation declaration, attributes kept in parallel arrays to avoid per-attribute objects. */
export interface Abbrev {
  code: number;
  tag: number;
  hasChildren: boolean;
  names: number[];
  forms: number[];
  /** DW_FORM_implicit_const values (0 for other forms). */
  consts: number[];
  /** Byte size of all attribute values when every form has a fixed size for `sizeKey`; -1 otherwise. */
  fixedSize: number;
  sizeKey: number;
}

export interface AbbrevTable {
  /** Dense lookup for the usual small sequential codes; `sparse` holds the rest. */
  dense: Array<Abbrev | undefined>;
  sparse: Map<number, Abbrev>;
}

const MAX_DENSE_CODE = 1 << 16;

export function lookupAbbrev(table: AbbrevTable, code: number): Abbrev | undefined {
  return code < MAX_DENSE_CODE ? table.dense[code] : table.sparse.get(code);
}

/** Parses the abbreviation table starting at `offset` in `.debug_abbrev`. */
export function parseAbbrevTable(
  data: Uint8Array,
  offset: number,
  littleEndian: boolean,
): AbbrevTable {
  const fail = (m: string) => new DwarfParseError(`.debug_abbrev table at ${offset}: ${m}`);
  if (offset >= data.length) throw fail(`offset is outside the section (${data.length} bytes)`);
  const r = new ByteReader(data, littleEndian, fail, offset);
  const table: AbbrevTable = { dense: [], sparse: new Map() };
  for (;;) {
    const code = r.uleb();
    if (code === 0) return table;
    const tag = r.uleb();
    const hasChildren = r.u8() !== 0;
    const names: number[] = [];
    const forms: number[] = [];
    const consts: number[] = [];
    for (;;) {
      const name = r.uleb();
      const form = r.uleb();
      if (name === 0 && form === 0) break;
      names.push(name);
      forms.push(form);
      consts.push(form === DW_FORM.implicit_const ? r.sleb() : 0);
    }
    const abbrev: Abbrev = {
      code,
      tag,
      hasChildren,
      names,
      forms,
      consts,
      fixedSize: -1,
      sizeKey: -1,
    };
    if (code < MAX_DENSE_CODE) {
      if (table.dense[code]) throw fail(`abbreviation code ${code} is declared twice`);
      table.dense[code] = abbrev;
    } else {
      if (table.sparse.has(code)) throw fail(`abbreviation code ${code} is declared twice`);
      table.sparse.set(code, abbrev);
    }
  }
}
