import { LinkerScriptError, type SourcePosition } from './errors.js';

/** ld's attribute letters in the order its map file prints them: a, x, r, w, l (`i` means `l`). */
const MAP_ORDER = ['a', 'x', 'r', 'w', 'l'] as const;
export type AttributeLetter = (typeof MAP_ORDER)[number];

export interface RegionAttributes {
  /** Attributes as written, words joined: `rw!x`. */
  text: string;
  set: AttributeLetter[];
  negated: AttributeLetter[];
}

/**
 * What a region holds, derived from its attributes:
 * - `ram`: writable (`w`), executable or not: CubeMX writes `RAM (xrw)`;
 * - `flash`: executable but not writable (`rx`); names are not consulted, since they mislead (ESP32's
 *   `iram0_2_seg (RX)` is flash-mapped, `iram0_0_seg (RX)` is RAM);
 * - `rom`: readable only (`r`, or `!w`);
 * - with `!x` only (data but not code) it is `ram`;
 * - without attributes the name is the only hint (FLASH/ROM/TEXT → flash, RAM/SRAM/CCM/TCM → ram).
 */
export type RegionKind = 'flash' | 'ram' | 'rom' | 'unknown';

/**
 * Parses attribute words the way ld does: `!` before a word negates that word only (`rx!w` is
 * r and x, not w; `!rw` negates both). Letters are case-insensitive.
 */
export function parseAttributes(
  words: string[],
  region: string,
  position: SourcePosition,
): RegionAttributes {
  const set = new Set<AttributeLetter>();
  const negated = new Set<AttributeLetter>();
  for (const word of words) {
    const target = word.startsWith('!') ? negated : set;
    for (const char of word.startsWith('!') ? word.slice(1) : word) {
      const letter = char.toLowerCase() === 'i' ? 'l' : (char.toLowerCase() as AttributeLetter);
      if (!MAP_ORDER.includes(letter)) {
        throw new LinkerScriptError(
          'invalid-attributes',
          `invalid character '${char}' in the attributes of memory region ${region} (allowed: r w x a i l !)`,
          position,
        );
      }
      target.add(letter);
    }
  }
  return {
    text: words.join(''),
    set: MAP_ORDER.filter((letter) => set.has(letter)),
    negated: MAP_ORDER.filter((letter) => negated.has(letter)),
  };
}

/** The attributes column of ld's "Memory Configuration" map table, e.g. `xr!w`. */
export function formatAttributesLikeLdMap(attributes: RegionAttributes): string {
  const negated = attributes.negated.join('');
  return attributes.set.join('') + (negated ? `!${negated}` : '');
}

const RAM_NAME = /ram|ccm|tcm|dram|iram|sram|bss|heap|stack|data/i;
const FLASH_NAME = /flash|rom|text|code|xip|prog/i;

export function regionKind(name: string, attributes: RegionAttributes): RegionKind {
  const has = (letter: AttributeLetter): boolean => attributes.set.includes(letter);
  const denies = (letter: AttributeLetter): boolean => attributes.negated.includes(letter);
  if (has('w')) return 'ram';
  if (has('x')) return 'flash';
  if (has('r')) return 'rom';
  if (denies('x')) return 'ram';
  if (denies('w')) return 'rom';
  if (attributes.set.length > 0 || attributes.negated.length > 0) return 'unknown';
  if (FLASH_NAME.test(name)) return 'flash';
  if (RAM_NAME.test(name)) return 'ram';
  return 'unknown';
}
