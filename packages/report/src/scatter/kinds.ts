/**
 * What kind of memory a scatter region is. Scatter files declare no memory types, so it comes from:
 * 1. EMPTY, UNINIT or ZEROPAD: RAM (stack, heap, no-init areas);
 * 2. writable content (+RW, +ZI, RW-DATA, .bss/.data/.noinit sections): RAM;
 * 3. where it runs: outside its load region it is copied there at start-up, so it is RAM;
 * 4. inside its load region it runs in place: flash, unless its name says otherwise (IRAM, SRAM,
 *    DTCM → RAM, for images loaded into RAM). A load region is flash unless its name says
 *    otherwise or it only holds RAM.
 */
import { regionKind, type RegionKind } from '../linker/attributes.js';
import type { ResolvedRegion } from './resolve.js';

const NO_ATTRIBUTES = { text: '', set: [], negated: [] };
const WRITABLE_SELECTOR = /^\+(RW|ZI|RW-DATA|RW-CODE|DATA|BSS)$/i;
const WRITABLE_SECTION = /bss|\.data|noinit|no_init|heap|stack/i;
const UNINITIALIZED = new Set(['EMPTY', 'UNINIT', 'ZEROPAD']);

function inside(region: ResolvedRegion, container: ResolvedRegion): boolean | undefined {
  const { origin, length } = region;
  if (origin === undefined || container.origin === undefined || container.length === undefined) {
    return undefined;
  }
  return (
    origin >= container.origin && origin + (length ?? 0n) <= container.origin + container.length
  );
}

function executionKind(region: ResolvedRegion, load: ResolvedRegion): RegionKind {
  if (region.attributes.some((a) => UNINITIALIZED.has(a.keyword))) return 'ram';
  const writable = region.inputs.some((input) =>
    input.selectors.some(
      (s) => WRITABLE_SELECTOR.test(s) || (!s.startsWith('+') && WRITABLE_SECTION.test(s)),
    ),
  );
  if (writable) return 'ram';
  const inPlace = inside(region, load);
  if (inPlace === false) return 'ram';
  const byName = regionKind(region.name, NO_ATTRIBUTES);
  if (byName !== 'unknown') return byName;
  return inPlace ? 'flash' : 'unknown';
}

/** Kinds of all regions, by name. */
export function scatterRegionKinds(regions: ResolvedRegion[]): Map<string, RegionKind> {
  const kinds = new Map<string, RegionKind>();
  const loads = new Map(regions.filter((r) => r.type === 'load').map((r) => [r.name, r]));
  for (const region of regions) {
    if (region.type === 'execution')
      kinds.set(region.name, executionKind(region, loads.get(region.loadRegion!)!));
  }
  for (const load of loads.values()) {
    const byName = regionKind(load.name, NO_ATTRIBUTES);
    const members = regions.filter((r) => r.loadRegion === load.name).map((r) => kinds.get(r.name));
    const kind =
      byName !== 'unknown'
        ? byName
        : members.length > 0 && members.every((k) => k === 'ram')
          ? 'ram'
          : 'flash';
    kinds.set(load.name, kind);
  }
  return kinds;
}
