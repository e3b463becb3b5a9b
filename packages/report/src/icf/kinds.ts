/**
 * What kind of memory an ICF region is: `define rom region` / `define ram region` say it; otherwise
 * what the file places there does. A region that receives writable content (readwrite, zeroinit,
 * .bss/.data/.noinit sections, stack and heap blocks) is RAM; one that receives only read-only
 * content is flash; when neither can be told, the region's name is the only hint.
 */
import { regionKind, type RegionKind } from '../linker/attributes.js';
import type { SelectorItem } from './ast.js';
import type { IcfModel } from './load.js';

type Content = 'writable' | 'readonly' | 'unknown';

const NO_ATTRIBUTES = { text: '', set: [], negated: [] };
const WRITABLE_ATTRIBUTE = new Set(['readwrite', 'rw', 'zeroinit', 'zi']);
const READONLY_ATTRIBUTE = new Set(['readonly', 'ro', 'code', 'const', 'readexec', 'rx']);
const WRITABLE_SECTION =
  /bss|\.data(?!_init)|noinit|no_init|heap|stack|textrw|ramfunc|\.tdata|ramvec/i;
const READONLY_SECTION =
  /text|rodata|intvec|vector|const|init_table|data_init|resetvec|ccfg|exidx|extab|init_array|cstartup|checksum/i;

/**
 * What an item holds, judged by one kind of evidence at a time, strongest first: the section
 * attributes the file states (readwrite, readonly…), then section names (.bss, .text…), then
 * stack and heap blocks (empty blocks with a size).
 */
type Evidence = 'attributes' | 'names' | 'reserves';

function contentOf(item: SelectorItem, model: IcfModel, by: Evidence, seen: Set<string>): Content {
  if (by === 'attributes') {
    if (item.attributes.some((a) => WRITABLE_ATTRIBUTE.has(a))) return 'writable';
    if (item.attributes.some((a) => READONLY_ATTRIBUTE.has(a))) return 'readonly';
  }
  if (by === 'names' && item.section !== undefined) {
    if (WRITABLE_SECTION.test(item.section)) return 'writable';
    if (READONLY_SECTION.test(item.section)) return 'readonly';
  }
  // Initial values (SEGGER's `copy of`) are stored in read-only memory.
  if (item.copyOf) return by === 'attributes' ? 'readonly' : 'unknown';
  const nested = item.block ?? item.overlay;
  if (nested !== undefined && !seen.has(nested)) {
    const block = model.blocks.get(nested);
    if (!block) return 'unknown';
    if (block.sized && block.items.length === 0) return by === 'reserves' ? 'writable' : 'unknown';
    return combine(block.items.map((i) => contentOf(i, model, by, new Set([...seen, nested]))));
  }
  if (item.nested) return combine(item.nested.map((i) => contentOf(i, model, by, seen)));
  return 'unknown';
}

function combine(contents: Content[]): Content {
  if (contents.includes('writable')) return 'writable';
  if (contents.includes('readonly')) return 'readonly';
  return 'unknown';
}

function placedContent(items: SelectorItem[], model: IcfModel): Content {
  for (const by of ['attributes', 'names', 'reserves'] as const) {
    const content = combine(items.map((item) => contentOf(item, model, by, new Set())));
    if (content !== 'unknown') return content;
  }
  return 'unknown';
}

/** Kinds of the model's regions, by region name. */
export function icfRegionKinds(model: IcfModel): Map<string, RegionKind> {
  const content = new Map<string, Content[]>();
  for (const placement of model.placements) {
    const placedHere: Content =
      placement.declared === 'ram'
        ? 'writable'
        : placement.declared === 'rom'
          ? 'readonly'
          : placedContent(placement.items, model);
    for (const region of placement.regions) {
      content.set(region, [...(content.get(region) ?? []), placedHere]);
    }
  }
  const kinds = new Map<string, RegionKind>();
  for (const region of model.regions) {
    const placed = combine(content.get(region.name) ?? []);
    kinds.set(
      region.name,
      region.declared === 'ram'
        ? 'ram'
        : region.declared === 'rom'
          ? 'rom'
          : placed === 'writable'
            ? 'ram'
            : placed === 'readonly'
              ? 'flash'
              : regionKind(region.name, NO_ATTRIBUTES),
    );
  }
  return kinds;
}
