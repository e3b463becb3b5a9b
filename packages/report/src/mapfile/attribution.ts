import type { MapRange } from './model.js';

/**
 * Sorted input-section ranges with address lookup. A symbol is attributed to the range that
 * contains it; a zero-size symbol at the start of a zero-size input section (linker markers,
 * empty sections) to that section when nothing larger contains it. ARM Thumb function addresses
 * have bit 0 set, so a miss is retried with it cleared.
 */
export class MapAttribution {
  readonly ranges: readonly MapRange[];
  private readonly starts: Float64Array;
  /** Running maximum of `end` over the sorted ranges, so overlapping ranges are still found. */
  private readonly maxEnds: Float64Array;

  constructor(ranges: readonly MapRange[]) {
    this.ranges = [...ranges].sort((a, b) => a.start - b.start || b.end - a.end);
    this.starts = Float64Array.from(this.ranges, (r) => r.start);
    this.maxEnds = new Float64Array(this.ranges.length);
    let max = -1;
    this.ranges.forEach((r, k) => {
      max = Math.max(max, r.end);
      this.maxEnds[k] = max;
    });
  }

  attribute(address: number): MapRange | null {
    return this.lookup(address) ?? (address % 2 === 1 ? this.lookup(address - 1) : null);
  }

  private lookup(address: number): MapRange | null {
    // Last range starting at or before the address.
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! <= address) lo = mid + 1;
      else hi = mid;
    }
    let empty: MapRange | null = null;
    // Walk back only while some earlier range still reaches the address.
    for (let k = lo - 1; k >= 0 && this.maxEnds[k]! >= address; k--) {
      const range = this.ranges[k]!;
      if (address < range.end) return range;
      if (range.start === address && range.end === address) empty ??= range;
    }
    return empty;
  }
}
