import type { SourceFileOrigin } from '@memtrail/contracts';
import { EM_ARM, type ElfFile, type ElfSymbol } from '../elf/index.js';
import type { MapAttribution } from '../mapfile/index.js';

/** A source file taken from the symbol table: a basename (for assembly often the object's name), no line. */
export interface SymbolTableSource {
  file: string;
  line: 0;
  from: SourceFileOrigin;
}

/** Symbols addr2line may take for the function at an address (bfd's maybe_function_sym). */
function isFunctionCandidate(symbol: ElfSymbol): boolean {
  if (symbol.section === '' || symbol.name.startsWith('$')) return false;
  if (symbol.type === 'FUNC') return true;
  // Hidden zero-size local labels are compiler annotations, not code.
  return (
    symbol.type === 'NOTYPE' &&
    !(symbol.size === 0 && symbol.binding === 'LOCAL' && symbol.visibility === 'HIDDEN')
  );
}

/**
 * Source files from `STT_FILE` symbols, for symbols DWARF says nothing about (a build without
 * `-g`, assembly without debug information). The linker writes each object's local symbols after
 * the object's `STT_FILE`, so:
 * - a function gets the file as addr2line gives it: of the symbols starting at its address, the
 *   first of the largest; a local one takes the `STT_FILE` before it, a global one only while no
 *   second `STT_FILE` has followed a symbol (one-file programs), since all globals come last;
 * - a variable gets the `STT_FILE` before it when it is local, by the same rule when global;
 * - with a map file, other symbols get the `STT_FILE` of the object the map says their address
 *   came from, found through the object's local symbols (ARM and RISC-V mapping symbols mark
 *   every object's code and data).
 */
export class SymbolTableFiles {
  /** `STT_FILE` name of the group each symbol is in (undefined before the first). */
  private readonly group: Array<string | undefined> = [];
  /** The file addr2line's rule gives each symbol. */
  private readonly ruled: Array<string | undefined> = [];
  /** `section:address` → index of the symbol addr2line takes for a function there. */
  private readonly functionAt = new Map<string, number>();
  private objects: Map<string, string | null> | undefined;

  constructor(
    private readonly elf: ElfFile,
    private readonly attribution?: MapAttribution,
  ) {
    let file: string | undefined;
    let state: 'none' | 'symbol' | 'fileAfterSymbol' = 'none';
    const sizes = new Map<string, number>();
    elf.symbols.forEach((symbol, index) => {
      if (symbol.type === 'FILE') {
        file = symbol.name;
        if (state === 'symbol') state = 'fileAfterSymbol';
        return;
      }
      this.group[index] = file;
      this.ruled[index] =
        symbol.binding === 'LOCAL' || state !== 'fileAfterSymbol' ? file : undefined;
      if (state === 'none') state = 'symbol';
      if (!isFunctionCandidate(symbol)) return;
      const key = this.key(symbol);
      const size = symbol.size || 1;
      if (!sizes.has(key) || size > sizes.get(key)!) {
        sizes.set(key, size);
        this.functionAt.set(key, index);
      }
    });
  }

  /** The file for symbol `index` of `elf.symbols` (a function or a variable), if any. */
  sourceOf(index: number): SymbolTableSource | undefined {
    const symbol = this.elf.symbols[index]!;
    const winner =
      symbol.type === 'FUNC' ? (this.functionAt.get(this.key(symbol)) ?? index) : index;
    const file = this.ruled[winner];
    if (file) return { file, line: 0, from: 'symbol_table' };
    const mapped = this.attribution && this.objectFile(symbol.value);
    return mapped ? { file: mapped, line: 0, from: 'map_file' } : undefined;
  }

  private key(symbol: ElfSymbol): string {
    const arm = this.elf.machine === EM_ARM && symbol.type === 'FUNC';
    return `${symbol.sectionIndex}:${arm ? symbol.value - (symbol.value % 2) : symbol.value}`;
  }

  private objectFile(address: number): string | undefined {
    if (!this.objects) {
      this.objects = new Map();
      this.elf.symbols.forEach((symbol, index) => {
        const file = this.group[index];
        if (symbol.binding !== 'LOCAL' || symbol.section === '' || !file) return;
        const origin = this.attribution!.attribute(symbol.value);
        if (!origin) return;
        const key = `${origin.archive}(${origin.object})`;
        const known = this.objects!.get(key);
        // An object whose locals sit in two groups is ambiguous: name no file for it.
        this.objects!.set(key, known === undefined || known === file ? file : null);
      });
    }
    const origin = this.attribution!.attribute(address);
    return (origin && this.objects.get(`${origin.archive}(${origin.object})`)) ?? undefined;
  }
}
