import { MapAttribution } from './attribution.js';
import { parseGnuLdMap } from './gnu-ld.js';
import { parseLldMap } from './lld.js';
import type { MapFormat, MapParseOptions } from './model.js';

export function detectMapFormat(text: string): MapFormat {
  return /\bSize\s+Align\s+Out\s+In\s+Symbol\b/.test(text.slice(0, 4096)) ? 'lld' : 'gnu';
}

/** Parses a GNU ld or LLD map (detected from its content) into a lookup structure. */
export function parseMapFile(text: string, options: MapParseOptions = {}): MapAttribution {
  const ranges =
    detectMapFormat(text) === 'lld' ? parseLldMap(text, options) : parseGnuLdMap(text, options);
  return new MapAttribution(ranges);
}
