import type { ReportSymbol } from '@memtrail/contracts';
import { demangle } from '../demangle/index.js';
import {
  type SourceLocation,
  type SourceOptions,
  type SourceRequest,
  resolveSources,
} from '../dwarf/index.js';
import { EM_ARM, type ElfFile, type ElfSymbol } from '../elf/index.js';
import type { MapAttribution } from '../mapfile/index.js';
import { SymbolTableFiles, type SymbolTableSource } from './symbol-files.js';

type Source = SourceLocation & { from?: SymbolTableSource['from'] };

/**
 * The compat spec §2.1 filter: everything except empty names, ARM mapping symbols (`$a`, `$t`,
 * `$d`…) and LOCAL zero-size symbols that are neither functions nor objects.
 */
export function isReportedSymbol(symbol: ElfSymbol): boolean {
  if (symbol.name === '' || symbol.name.startsWith('$')) return false;
  return !(
    symbol.binding === 'LOCAL' &&
    symbol.size === 0 &&
    symbol.type !== 'FUNC' &&
    symbol.type !== 'OBJECT'
  );
}

/** Address used for debug-info lookups: ARM Thumb functions keep bit 0 in st_value, the code starts one byte lower. */
export function codeAddress(elf: ElfFile, symbol: ElfSymbol): number {
  return elf.machine === EM_ARM && symbol.type === 'FUNC'
    ? symbol.value - (symbol.value % 2)
    : symbol.value;
}

/** Symbols that own code or data: only these get a map-file object. */
function ownsContents(symbol: ElfSymbol): boolean {
  return (
    symbol.section !== '' && (symbol.type === 'FUNC' || symbol.type === 'OBJECT' || symbol.size > 0)
  );
}

/**
 * Report symbols in symbol-table order. Only defined functions and objects get a source location
 * (from DWARF, else from the symbol table and map: SymbolTableFiles), and linker-defined zero-size NOTYPE symbols (`_sdata`, `_estack`) no object file either: they
 * have no code or data of their own, so any value would be a guess from a neighbouring address.
 */
export function reportSymbols(
  elf: ElfFile,
  skipSections: ReadonlySet<string>,
  sourceOptions: SourceOptions,
  attribution?: MapAttribution,
): ReportSymbol[] {
  /** Indices into elf.symbols of the reported symbols. */
  const kept: number[] = [];
  elf.symbols.forEach((s, i) => {
    if (isReportedSymbol(s) && !(s.section !== '' && skipSections.has(s.section))) kept.push(i);
  });
  const wanted: number[] = [];
  const requests: SourceRequest[] = [];
  for (const index of kept) {
    const s = elf.symbols[index]!;
    if ((s.type !== 'FUNC' && s.type !== 'OBJECT') || s.section === '') continue;
    wanted.push(index);
    requests.push({
      kind: s.type === 'FUNC' ? 'function' : 'variable',
      address: codeAddress(elf, s),
      name: s.name,
    });
  }
  const sources = resolveSources(elf, requests, sourceOptions);
  let fromSymbolTable: SymbolTableFiles | undefined;
  const bySymbol = new Map<number, Source>();
  wanted.forEach((index, i) => {
    const source: Source | undefined =
      sources[i] ?? (fromSymbolTable ??= new SymbolTableFiles(elf, attribution)).sourceOf(index);
    if (source) bySymbol.set(index, source);
  });
  return kept.map((index) => {
    const s = elf.symbols[index]!;
    const source = bySymbol.get(index);
    const origin = attribution && ownsContents(s) ? attribution.attribute(s.value) : null;
    const symbol: ReportSymbol = {
      name: demangle(s.name),
      address: s.value,
      size: s.size,
      type: s.type,
      binding: s.binding,
      section: s.section,
      source_file: source?.file ?? '',
      source_line: source?.line ?? 0,
      visibility: s.visibility,
      archive: origin?.archive ?? '',
      object_file: origin?.object ?? '',
    };
    // Added only to the few symbols that need it, so the common shape stays one.
    if (source?.from) symbol.source_file_from = source.from;
    return symbol;
  });
}
