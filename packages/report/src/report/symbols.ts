import type { ReportSymbol } from '@memtrail/contracts';
import { demangle } from '../demangle/index.js';
import { type SourceOptions, type SourceRequest, resolveSources } from '../dwarf/index.js';
import { EM_ARM, type ElfFile, type ElfSymbol } from '../elf/index.js';
import type { MapAttribution } from '../mapfile/index.js';

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
 * Report symbols in symbol-table order. Only defined functions and objects get a source location,
 * and linker-defined zero-size NOTYPE symbols (`_sdata`, `_estack`) no object file either: they
 * have no code or data of their own, so any value would be a guess from a neighbouring address.
 */
export function reportSymbols(
  elf: ElfFile,
  skipSections: ReadonlySet<string>,
  sourceOptions: SourceOptions,
  attribution?: MapAttribution,
): ReportSymbol[] {
  const kept = elf.symbols.filter(
    (s) => isReportedSymbol(s) && !(s.section !== '' && skipSections.has(s.section)),
  );
  const wanted: number[] = [];
  const requests: SourceRequest[] = [];
  kept.forEach((s, i) => {
    if ((s.type !== 'FUNC' && s.type !== 'OBJECT') || s.section === '') return;
    wanted.push(i);
    requests.push({
      kind: s.type === 'FUNC' ? 'function' : 'variable',
      address: codeAddress(elf, s),
      name: s.name,
    });
  });
  const sources = resolveSources(elf, requests, sourceOptions);
  const bySymbol = new Map<number, { file: string; line: number }>();
  wanted.forEach((symbolIndex, i) => {
    const source = sources[i];
    if (source) bySymbol.set(symbolIndex, source);
  });
  return kept.map((s, i) => {
    const source = bySymbol.get(i);
    const origin = attribution && ownsContents(s) ? attribution.attribute(s.value) : null;
    return {
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
  });
}
