/** A region as the container rule sees it. */
export interface RegionSpan {
  name: string;
  address: number;
  limit: number;
  /** Something is listed in the region itself. */
  holdsSections: boolean;
}

export interface Nesting {
  /** Container name → the regions directly inside it, in declaration order. */
  children: Map<string, string[]>;
  /** Region name → the container it lies directly in. */
  parents: Map<string, string>;
  /** Used size with containers summed up. */
  used(name: string): number;
}

function inside(inner: RegionSpan, innerIndex: number, outer: RegionSpan, outerIndex: number) {
  if (inner === outer || inner.limit <= 0) return false;
  const within =
    inner.address >= outer.address && inner.address + inner.limit <= outer.address + outer.limit;
  // Equal ranges nest the later declaration under the earlier one, so nothing nests in itself.
  return within && (inner.limit < outer.limit || innerIndex > outerIndex);
}

/**
 * Overlapping regions are not parents and children: ChibiOS declares `ram0` over `ram1` and
 * `ram2` and places everything in `ram0`. A region is a container only when nothing is placed in
 * it directly and some region inside it holds something, as MicroPython's `FLASH` around
 * `FLASH_ISR` and `FLASH_TEXT`; its used size is then the sum of the regions directly inside it.
 */
export function containers(
  regions: RegionSpan[],
  ownUsed: (region: RegionSpan) => number,
): Nesting {
  const index = new Map(regions.map((region, i) => [region, i]));
  const within = (outer: RegionSpan) =>
    regions.filter((inner) => inside(inner, index.get(inner)!, outer, index.get(outer)!));
  const children = new Map<string, string[]>();
  const parents = new Map<string, string>();
  const usedByName = new Map<string, number>();
  // Smallest first, so a container inside a container is settled before its parent.
  const bySize = [...regions].sort((a, b) => a.limit - b.limit || index.get(b)! - index.get(a)!);
  for (const region of bySize) {
    usedByName.set(region.name, ownUsed(region));
    if (region.holdsSections || region.limit <= 0) continue;
    const inner = within(region);
    if (!inner.some((candidate) => usedByName.get(candidate.name)! > 0)) continue;
    const direct = inner.filter(
      (candidate) =>
        !inner.some((other) => inside(candidate, index.get(candidate)!, other, index.get(other)!)),
    );
    children.set(
      region.name,
      direct.map((child) => child.name),
    );
    for (const child of direct) parents.set(child.name, region.name);
    usedByName.set(
      region.name,
      direct.reduce((sum, child) => sum + usedByName.get(child.name)!, 0),
    );
  }
  return { children, parents, used: (name) => usedByName.get(name) ?? 0 };
}
