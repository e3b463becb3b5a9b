/** Raised when DWARF debug information cannot be decoded; the message names the section and offset. */
export class DwarfParseError extends Error {
  override readonly name = 'DwarfParseError';
}
