/**
 * GCC and LLVM clone suffixes: `.constprop.N`, `.isra.N`, `.part.N`, `.cold`, `.lto_priv.N`,
 * `.llvm.N`, `.localalias`, alone or combined (`.part.0.constprop.0`, `.isra.0.cold`). They appear raw after C
 * names (`scale.constprop.0`) and, after demangling, as c++filt prints them
 * (`scale(int) [clone .constprop.0]`); MemBrowse appends them raw after demangled names too.
 */
const RAW = /(?:\.(?:constprop|isra|part|cold|lto_priv|llvm|localalias)(?:\.[0-9]+)*)+$/;
const PRINTED = /(?: \[clone \.[a-z0-9_]+(?:\.[0-9]+)*\])+$/;

/** The name without trailing clone suffixes in either form. */
export function stripCloneSuffixes(name: string): string {
  return name.replace(PRINTED, '').replace(RAW, '');
}
