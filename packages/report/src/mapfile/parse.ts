import { MapAttribution } from './attribution.js';
import { parseGnuLdMap } from './gnu-ld.js';
import { parseIarMap } from './iar.js';
import { parseLldMap } from './lld.js';
import type { MapFormat, MapParseOptions } from './model.js';

/** Detection as MemBrowse does it (compat spec §4.4): IAR markers, then LLD's header, else GNU ld. */
export function detectMapFormat(text: string): MapFormat {
  if (text.includes('*** PLACEMENT SUMMARY') || text.includes('IAR ELF Linker')) return 'iar';
  return /\bSize\s+Align\s+Out\s+In\s+Symbol\b/.test(text.slice(0, 4096)) ? 'lld' : 'gnu';
}

/** Parses a GNU ld, LLD or IAR map (detected from its content) into a lookup structure. */
export function parseMapFile(text: string, options: MapParseOptions = {}): MapAttribution {
  const format = detectMapFormat(text);
  if (format === 'iar') return new MapAttribution(parseIarMap(text));
  if (format === 'lld') return new MapAttribution(parseLldMap(text, options));
  return new MapAttribution(parseGnuLdMap(text, options));
}
