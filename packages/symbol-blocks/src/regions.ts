import type { MemoryReport } from '@memtrail/contracts';

interface RegionSpan {
  name: string;
  start: number;
  end: number;
}

/**
 * Which region a symbol lies in: the smallest region containing its address (Thumb bit
 * cleared), as sections are mapped. Symbols outside every region get ''.
 */
export function regionFinder(layout: MemoryReport['memory_layout']): (address: number) => string {
  const spans: RegionSpan[] = Object.entries(layout ?? {})
    .map(([name, r]) => ({
      name,
      start: r.address,
      end: r.address + Math.max(r.limit_size, r.used_size),
    }))
    .sort((a, b) => a.end - a.start - (b.end - b.start));
  return (address) => {
    const even = address - (address % 2);
    for (const s of spans) if (even >= s.start && even < s.end) return s.name;
    return '';
  };
}
