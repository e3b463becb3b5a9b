/** Raised when bytes do not form a readable ELF file; the message says what was being read, and where. */
export class ElfParseError extends Error {
  override readonly name = 'ElfParseError';
}
