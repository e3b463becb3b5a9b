import type { MemoryReport } from '@memtrail/contracts';

interface Span {
  name: string;
  start: number;
  end: number;
}

/**
 * Which region a symbol lies in: the region whose layout lists the symbol's section at a range
 * holding its address — the region the linker placed the section in, also where regions overlap
 * (ChibiOS's ram0 around ram1) — else the smallest region containing the address. Addresses are
 * taken with the Thumb bit cleared. Symbols outside every region get ''.
 */
export function regionFinder(
  layout: MemoryReport['memory_layout'],
): (section: string, address: number) => string {
  const regions: Span[] = [];
  const sections = new Map<string, Span[]>();
  for (const [name, r] of Object.entries(layout ?? {})) {
    regions.push({ name, start: r.address, end: r.address + Math.max(r.limit_size, r.used_size) });
    for (const s of r.sections ?? []) {
      let spans = sections.get(s.name);
      if (!spans) sections.set(s.name, (spans = []));
      spans.push({ name, start: s.address, end: s.address + s.size });
    }
  }
  regions.sort((a, b) => a.end - a.start - (b.end - b.start));
  const inside = (spans: readonly Span[], even: number) => {
    for (const s of spans) if (even >= s.start && even < s.end) return s.name;
    return undefined;
  };
  return (section, address) => {
    const even = address - (address % 2);
    const placed = sections.get(section);
    return (placed && inside(placed, even)) ?? inside(regions, even) ?? '';
  };
}
