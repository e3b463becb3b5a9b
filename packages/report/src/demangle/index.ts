/**
 * Symbol demangling for reports: Itanium C++ (GCC, Clang), Rust legacy and Rust v0. Names that
 * are not mangled, or that fail to parse, come back unchanged, as c++filt does.
 *
 * Display conventions:
 * - C++ clone suffixes print as c++filt prints them: `scale(int, int) [clone .constprop.0]`.
 *   One deliberate difference: c++filt leaves data names with a suffix mangled
 *   (`_ZL7counter.lto_priv.0`, common in LTO builds); we print `counter [clone .lto_priv.0]`.
 * - Rust prints as rustfilt does by default: no legacy hash, no crate disambiguators.
 */
import { demangleItanium } from './itanium.js';
import { demangleRustLegacy, isRustLegacy } from './rust-legacy.js';
import { demangleRustV0 } from './rust-v0.js';

export { demangleItanium } from './itanium.js';
export { demangleRustLegacy } from './rust-legacy.js';
export { demangleRustV0 } from './rust-v0.js';
export { stripCloneSuffixes } from './clone-suffix.js';

export function demangle(name: string): string {
  if (name.startsWith('_R')) return demangleRustV0(name) ?? name;
  if (!name.startsWith('_Z')) return name;
  if (isRustLegacy(name)) {
    const rust = demangleRustLegacy(name);
    if (rust !== null) return rust;
  }
  const cxx = demangleItanium(name);
  if (cxx !== null) return cxx;
  const suffix = /(\.[a-z_][a-z0-9_]*(?:\.[0-9]+)*)+$/.exec(name);
  if (suffix) {
    const base = demangleItanium(name.slice(0, suffix.index));
    if (base !== null)
      return base + suffix[0].replace(/\.[a-z_][a-z0-9_]*(?:\.[0-9]+)*/g, ' [clone $&]');
  }
  return name;
}
