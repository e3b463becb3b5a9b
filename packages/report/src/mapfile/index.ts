/** Linker map files (GNU ld, LLD): which object and archive each address came from. */
export { MapAttribution } from './attribution.js';
export { parseGnuLdMap } from './gnu-ld.js';
export { parseLldMap } from './lld.js';
export { splitInputFile, type MapFormat, type MapParseOptions, type MapRange } from './model.js';
export { detectMapFormat, parseMapFile } from './parse.js';
