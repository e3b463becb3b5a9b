/** Parsers for binutils `readelf` output, used as ground truth by the ELF and DWARF tests. */

export interface ReadelfSection {
  index: number;
  name: string;
  type: string;
  address: number;
  offset: number;
  size: number;
  entsize: number;
  flags: string;
  link: number;
  info: number;
  align: number;
}

export function parseSectionTable(text: string): ReadelfSection[] {
  const sections: ReadelfSection[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\[\s*(\d+)\]\s(.*)$/.exec(line);
    if (!m) continue;
    const tokens = m[2]!.trim().split(/\s+/);
    const align = Number(tokens.pop());
    const info = Number(tokens.pop());
    const link = Number(tokens.pop());
    let next = tokens.pop()!;
    let flags = '';
    if (!/^[0-9a-f]+$/.test(next)) {
      flags = next;
      next = tokens.pop()!;
    }
    const entsize = parseInt(next, 16);
    const size = parseInt(tokens.pop()!, 16);
    const offset = parseInt(tokens.pop()!, 16);
    const address = parseInt(tokens.pop()!, 16);
    const type = tokens.pop()!;
    sections.push({
      index: Number(m[1]),
      name: tokens.join(' '),
      type,
      address,
      offset,
      size,
      entsize,
      flags,
      link,
      info,
      align,
    });
  }
  return sections;
}

export interface ReadelfSegment {
  type: string;
  offset: number;
  virtAddr: number;
  physAddr: number;
  fileSize: number;
  memSize: number;
  flags: string;
  align: number;
}

export function parseSegments(text: string): ReadelfSegment[] {
  const out: ReadelfSegment[] = [];
  const re =
    /^\s+(\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+([RWE ]+?)\s+0x([0-9a-f]+)\s*$/;
  for (const line of text.split('\n')) {
    const m = re.exec(line);
    if (!m) continue;
    out.push({
      type: m[1]!,
      offset: parseInt(m[2]!, 16),
      virtAddr: parseInt(m[3]!, 16),
      physAddr: parseInt(m[4]!, 16),
      fileSize: parseInt(m[5]!, 16),
      memSize: parseInt(m[6]!, 16),
      flags: m[7]!.replace(/\s/g, '').replace('E', 'X'),
      align: parseInt(m[8]!, 16),
    });
  }
  return out;
}

export interface ReadelfSymbol {
  value: number;
  size: number;
  type: string;
  bind: string;
  vis: string;
  ndx: string;
  name: string;
}

/** Symbols of one table (".symtab" or ".dynsym") from `readelf -s -W`, null entry excluded. */
export function parseSymbols(text: string, table: string): ReadelfSymbol[] {
  const out: ReadelfSymbol[] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    const header = /^Symbol table '([^']+)'/.exec(line);
    if (header) {
      inTable = header[1] === table;
      continue;
    }
    if (!inTable) continue;
    const m = /^\s*(\d+):\s+([0-9a-f]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s?(.*)$/.exec(line);
    if (!m || m[1] === '0') continue;
    out.push({
      value: parseInt(m[2]!, 16),
      size: Number(m[3]),
      type: m[4]!,
      bind: m[5]!,
      vis: m[6]!,
      ndx: m[7]!,
      // .dynsym names carry a version suffix in readelf's output ("puts@GLIBC_2.2.5 (2)").
      name: m[8]!.replace(/@.*$/, ''),
    });
  }
  return out;
}

export interface ReadelfDie {
  offset: number;
  tag: string;
  name?: string;
  declLine?: number;
  address?: number;
  reference?: number;
}

/** DIEs of `readelf --debug-dump=info` with the attributes the source tests need. */
export function parseDies(text: string): Map<number, ReadelfDie> {
  const dies = new Map<number, ReadelfDie>();
  let current: ReadelfDie | undefined;
  for (const line of text.split('\n')) {
    const start = /^\s*<\d+><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)/.exec(line);
    if (start) {
      current = { offset: parseInt(start[1]!, 16), tag: start[2]! };
      dies.set(current.offset, current);
      continue;
    }
    if (!current) continue;
    const attr = /^\s*<[0-9a-f]+>\s+(DW_AT_\w+)\s*:\s*(.*)$/.exec(line);
    if (!attr) continue;
    const [, name, value] = attr as unknown as [string, string, string];
    if (name === 'DW_AT_name')
      current.name = value.startsWith('(')
        ? value.slice(value.indexOf('): ') + 3).trim()
        : value.trim();
    else if (name === 'DW_AT_decl_line') current.declLine = Number(value.trim());
    else if (name === 'DW_AT_location') {
      const m = /\(DW_OP_addr: ([0-9a-f]+)\)$/.exec(value.trim());
      if (m) current.address = parseInt(m[1]!, 16);
    } else if (name === 'DW_AT_specification' || name === 'DW_AT_abstract_origin') {
      const m = /<0x([0-9a-f]+)>/.exec(value);
      if (m) current.reference = parseInt(m[1]!, 16);
    }
  }
  return dies;
}
