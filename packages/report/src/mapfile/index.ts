/** Linker map files (GNU ld, LLD, IAR ILINK): which object and archive each address came from. */
export { MapAttribution } from './attribution.js';
export { parseGnuLdMap } from './gnu-ld.js';
export { parseIarMap } from './iar.js';
export { parseLldMap } from './lld.js';
export { splitInputFile, type MapFormat, type MapParseOptions, type MapRange } from './model.js';
export { detectMapFormat, parseMapFile } from './parse.js';
