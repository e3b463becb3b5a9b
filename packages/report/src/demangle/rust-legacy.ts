/**
 * Rust legacy mangling: an Itanium-shaped `_ZN<len><ident>…17h<16 hex>E` whose identifiers use
 * `$…$` escapes. Printed as rustfilt does by default: `core::fmt::write`, without the hash.
 */

const ESCAPES: Record<string, string> = {
  SP: '@',
  BP: '*',
  RF: '&',
  LT: '<',
  GT: '>',
  LP: '(',
  RP: ')',
  C: ',',
};

const HASH = /^h[0-9a-f]{16}$/;

/** True when `mangled` has the legacy Rust shape (checked before trying C++). */
export function isRustLegacy(mangled: string): boolean {
  return mangled.startsWith('_ZN') && /17h[0-9a-f]{16}E(?:\.|$)/.test(mangled);
}

function unescape(ident: string): string | null {
  if (!ident.includes('$') && !ident.includes('.')) return ident;
  // A leading `_$` protects an identifier that starts with an escape.
  let s = ident.startsWith('_$') ? ident.slice(1) : ident;
  let out = '';
  while (s.length > 0) {
    if (s.startsWith('..')) {
      out += '::';
      s = s.slice(2);
    } else if (s[0] === '$') {
      const end = s.indexOf('$', 1);
      if (end < 0) return null;
      const code = s.slice(1, end);
      let text = ESCAPES[code];
      if (text === undefined && /^u[0-9a-f]+$/.test(code)) {
        const point = parseInt(code.slice(1), 16);
        if (point > 0x10ffff) return null;
        text = String.fromCodePoint(point);
      }
      if (text === undefined) return null;
      out += text;
      s = s.slice(end + 1);
    } else {
      const next = s.search(/[$.]|$/);
      const cut = next === 0 ? 1 : next;
      out += s.slice(0, cut);
      s = s.slice(cut);
    }
  }
  return out;
}

export function demangleRustLegacy(mangled: string): string | null {
  if (!mangled.startsWith('_ZN')) return null;
  let i = 3;
  const parts: string[] = [];
  while (mangled[i] !== 'E') {
    let length = 0;
    const start = i;
    for (let c = mangled.charCodeAt(i); c >= 48 && c <= 57; c = mangled.charCodeAt(++i))
      length = length * 10 + c - 48;
    if (i === start || length === 0 || i + length > mangled.length) return null;
    parts.push(mangled.slice(i, i + length));
    i += length;
  }
  // Anything after the closing E is an LLVM or GCC suffix (`.llvm.123`), which rustfilt drops.
  const rest = mangled.slice(i + 1);
  if (rest !== '' && !rest.startsWith('.')) return null;
  const last = parts[parts.length - 1];
  if (parts.length < 2 || last === undefined || !HASH.test(last)) return null;
  const decoded: string[] = [];
  for (const part of parts.slice(0, -1)) {
    const text = unescape(part);
    if (text === null) return null;
    decoded.push(text);
  }
  return decoded.join('::');
}
