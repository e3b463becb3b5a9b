/** One input section placed by the linker, attributed to the object (and archive) it came from. */
export interface MapRange {
  start: number;
  /** Exclusive; equal to `start` for zero-size input sections. */
  end: number;
  /** Input section name, e.g. `.text.main`. */
  section: string;
  /** Output section it was placed in, e.g. `.text`. */
  outputSection: string;
  /** Archive path as written in the map (`lib/libutil.a`), or '' for a plain object. */
  archive: string;
  /** Object path as written in the map (`build/main.o`, `util.obj`). */
  object: string;
}

export type MapFormat = 'gnu' | 'lld' | 'iar';

export interface MapParseOptions {
  /**
   * Names of the ELF's SHF_ALLOC output sections. Entries of other output sections are dropped.
   * Without it, well-known non-allocated sections (.debug*, .comment, attributes) are dropped.
   */
  allocatedSections?: ReadonlySet<string>;
}

/** `libfoo.a(bar.o)` → archive and object; Rust `.rlib(…)` the same way. */
export function splitInputFile(file: string): { archive: string; object: string } {
  const match = /^(.*\.(?:a|lib|rlib))\((.*)\)$/.exec(file);
  return match ? { archive: match[1]!, object: match[2]! } : { archive: '', object: file };
}

const NON_ALLOC =
  /^\.(?:debug|zdebug|comment|stab|line$|ARM\.attributes|riscv\.attributes|gnu\.attributes|GCC\.command\.line|gnu_debuglink|symtab|strtab|shstrtab)/;

export function isAllocated(outputSection: string, options: MapParseOptions): boolean {
  if (outputSection === '/DISCARD/') return false;
  if (options.allocatedSections) return options.allocatedSections.has(outputSection);
  return !NON_ALLOC.test(outputSection);
}
