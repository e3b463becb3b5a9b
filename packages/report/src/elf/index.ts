export { parseElf } from './parse.js';
export { ElfParseError } from './errors.js';
export { detectToolchain } from './toolchain.js';
export { EM_ARM } from './constants.js';
export type { ElfFile, ElfSection, ElfSegment, ElfSymbol, SectionFlags } from './model.js';
