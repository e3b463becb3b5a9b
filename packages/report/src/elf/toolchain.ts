/**
 * Toolchain detection from the NUL-separated entries of `.comment`. Vendors are checked in a fixed
 * order (Arm Compiler, clang, rustc, IAR, GCC) because a link often carries several entries, e.g.
 * clang-built code linked with GCC's runtime, and the more specific compiler should win.
 */
const PATTERNS: Array<[string, RegExp]> = [
  ['armcc', /\b(?:Arm|ARM)\s+Compiler(?:\s+for\s+Embedded)?\s+(\d+(?:\.\d+)+)/],
  ['armcc', /\barm(?:clang|cc|link)\b[^\n]*?\bV?(\d+\.\d+(?:\.\d+)*)/i],
  ['clang', /\bclang version (\d+(?:\.\d+)+)/],
  ['rustc', /\brustc version (\d+(?:\.\d+)+)/],
  ['iar', /\bIAR\b[^\n]*?\bV(\d+\.\d+(?:\.\d+)?)/],
  ['gcc', /\bGCC: (?:\([^)]*\) )?(\d+(?:\.\d+)+)/],
];

export function detectToolchain(comment: Uint8Array): string | null {
  const entries = new TextDecoder('latin1')
    .decode(comment)
    .split('\0')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  for (const [name, pattern] of PATTERNS) {
    for (const entry of entries) {
      const match = pattern.exec(entry);
      if (match) return `${name}-${match[1]}`;
    }
  }
  return null;
}
