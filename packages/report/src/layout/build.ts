import type { ReportSection, UsedSizeBasis } from '@memtrail/contracts';
import { containers } from './containers.js';
import type {
  BuildLayoutOptions,
  LayoutRegion,
  LayoutSection,
  LayoutSegment,
  MemoryLayoutRegion,
  MemoryLayoutResult,
  RegionUsage,
  SectionAssignment,
} from './types.js';

/** A layout that cannot be built as asked (e.g. `--limits` moving a region). */
export class LayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LayoutError';
  }
}

/** One section (or load image) listed in a region. */
interface Placed {
  entry: ReportSection;
  start: number;
  end: number;
  /** The linker configuration assigned it here (as opposed to its address lying here). */
  charged: boolean;
  load: boolean;
  alignment: number;
}

interface Slot {
  name: string;
  address: number;
  /** LENGTH used to attribute sections (always the primary scripts'). */
  limit: number;
  /** LENGTH reported and used for free space and utilization (`--limits` when given). */
  reportedLimit: number;
  type: string;
  placed: Placed[];
  /** End of the last section charged here, as GNU ld's region `current`; undefined: none yet. */
  current?: number;
  /** Start of the last section charged here. */
  lastCharged?: number;
  /** `--skip-section` removed a section the configuration assigned here. */
  lostAssigned: boolean;
  declared: boolean;
}

interface Measure {
  used: number;
  basis: UsedSizeBasis;
  linker?: number;
}

const TYPE_BY_KIND = { flash: 'FLASH', ram: 'RAM', rom: 'ROM', unknown: 'UNKNOWN' } as const;
/** A gap this large (and at least the section's alignment) before a section that ends at its
 * region's end is no alignment padding: the section is pinned there. */
const MIN_PIN_GAP = 16;

function sectionType(section: LayoutSection): ReportSection['type'] {
  if (section.flags.exec) return 'code';
  if (section.flags.write) return 'data';
  return 'rodata';
}

function entry(section: LayoutSection, address: number): ReportSection {
  return {
    name: section.name,
    address,
    size: section.size,
    type: sectionType(section),
    end_address: address + section.size,
  };
}

/**
 * ld sets the region's `current` to the end of each section it places there; a .tbss takes no
 * room. Overlay members share their start, and ld moves past the largest of them.
 */
function charge(slot: Slot, section: LayoutSection, address: number): void {
  const end = section.flags.tls && section.type === 'NOBITS' ? address : address + section.size;
  slot.current =
    slot.lastCharged === address && slot.current !== undefined ? Math.max(slot.current, end) : end;
  slot.lastCharged = address;
}

function place(
  slot: Slot,
  section: LayoutSection,
  address: number,
  how: { charged: boolean; load: boolean },
): void {
  if (how.charged) charge(slot, section, address);
  slot.placed.push({
    entry: entry(section, address),
    start: address,
    end: address + section.size,
    alignment: Math.max(section.alignment ?? 1, 1),
    ...how,
  });
}

/** The smallest region whose range holds `address` (only the start counts, as in MemBrowse). */
function smallestContaining(slots: Slot[], address: number): Slot | undefined {
  let best: Slot | undefined;
  for (const slot of slots) {
    if (
      address >= slot.address &&
      address < slot.address + slot.limit &&
      (!best || slot.limit < best.limit)
    )
      best = slot;
  }
  return best;
}

function segmentHolding(
  segments: LayoutSegment[],
  section: LayoutSection,
): LayoutSegment | undefined {
  return segments.find(
    (segment) =>
      section.address >= segment.virtAddr &&
      section.address + section.size <= segment.virtAddr + segment.memSize,
  );
}

/**
 * Where a section with contents is stored when that differs from where it runs: from the PT_LOAD
 * segment whose file image holds it, as BFD computes an LMA (a segment that only reserves memory,
 * such as one ld makes for a NOLOAD region, can cover the same run addresses).
 */
export function loadAddressOf(
  segments: LayoutSegment[],
  section: LayoutSection,
): number | undefined {
  if (section.type === 'NOBITS') return undefined;
  const segment = segments.find(
    (s) =>
      section.address >= s.virtAddr &&
      section.address + section.size <= s.virtAddr + s.fileSize &&
      // Overlays run at one address from several segments: the file offset says which, as for
      // readelf's section-to-segment mapping.
      (section.offset === undefined ||
        s.offset === undefined ||
        (section.offset >= s.offset && section.offset + section.size <= s.offset + s.fileSize)),
  );
  if (!segment) return undefined;
  const loadAddress = segment.physAddr + (section.address - segment.virtAddr);
  return loadAddress === section.address ? undefined : loadAddress;
}

/**
 * Builds `memory_layout` (compat spec §2.1, §2.4, §4.6). Each allocated section is listed in the
 * region the linker configuration assigns it to (`assignments`), else in the smallest region
 * holding its run address; a PROGBITS section whose load address (from its PT_LOAD segment)
 * differs is listed again at that address, in its assigned load region or the region holding it.
 * Overlapping regions share nothing: a section is listed once per address it occupies. A region
 * with nothing in it around regions that hold something is a container (see `containers`).
 */
export function buildMemoryLayout(options: BuildLayoutOptions): MemoryLayoutResult {
  const warnings: string[] = [];
  const skip = new Set(options.skipSections ?? []);
  const allocated = options.sections.filter((section) => section.flags.alloc);
  for (const name of skip) {
    if (!allocated.some((section) => section.name === name))
      warnings.push(`--skip-section ${name}: no allocated section has this name`);
  }
  const segments = options.segments.filter((segment) => segment.type === 'PT_LOAD');

  if (!options.regions || options.regions.length === 0) {
    warnings.push(
      'no MEMORY regions (no linker script given, or none with a MEMORY block): using default Code/Data regions without size limits',
    );
    const kept = allocated.filter((section) => !skip.has(section.name));
    return { memoryLayout: finish(defaultSlots(kept), options), warnings };
  }

  const reported = reportedLengths(options.regions, options.limits, warnings);
  const declared: Slot[] = options.regions.map((region) => ({
    name: region.name,
    address: region.origin,
    limit: region.length,
    reportedLimit: reported.get(region.name) ?? region.length,
    type: TYPE_BY_KIND[region.kind ?? 'unknown'],
    placed: [],
    lostAssigned: false,
    declared: true,
  }));
  const byName = new Map(declared.map((slot) => [slot.name, slot]));
  const assignments = options.assignments;
  const assignmentOf = (section: LayoutSection): SectionAssignment | undefined =>
    typeof assignments === 'function' ? assignments(section) : assignments?.get(section.name);
  const assigned = (section: LayoutSection, which: keyof SectionAssignment): Slot | undefined => {
    const name = assignmentOf(section)?.[which];
    if (name === undefined) return undefined;
    const slot = byName.get(name);
    if (!slot)
      warnings.push(
        `section ${section.name}: ${which === 'region' ? 'region' : 'load region'} ${name} is not a memory region of the layout; placing it by address`,
      );
    return slot;
  };
  const orphans: LayoutSection[] = [];
  for (const section of allocated) {
    if (skip.has(section.name)) {
      // Gone from the report, but the linker placed it: its figure still counts it.
      const assignment = assignmentOf(section);
      const runSlot = byName.get(assignment?.region ?? '');
      const loadSlot = byName.get(assignment?.loadRegion ?? '');
      const loadAddress = loadAddressOf(segments, section);
      if (runSlot) charge(runSlot, section, section.address);
      if (loadSlot && loadAddress !== undefined) charge(loadSlot, section, loadAddress);
      for (const slot of [runSlot, loadSlot]) if (slot) slot.lostAssigned = true;
      continue;
    }
    const runSlot = assigned(section, 'region');
    if (runSlot) place(runSlot, section, section.address, { charged: true, load: false });
    else {
      const slot = smallestContaining(declared, section.address);
      if (slot) place(slot, section, section.address, { charged: false, load: false });
      else orphans.push(section);
    }
    const loadAddress = loadAddressOf(segments, section);
    if (loadAddress === undefined) continue;
    const loadSlot = assigned(section, 'loadRegion');
    if (loadSlot && loadSlot !== runSlot) {
      place(loadSlot, section, loadAddress, { charged: true, load: true });
      continue;
    }
    const holding = smallestContaining(declared, loadAddress);
    if (holding) place(holding, section, loadAddress, { charged: false, load: true });
    else
      warnings.push(
        `section ${section.name}: load address 0x${loadAddress.toString(16)} is in no memory region`,
      );
  }
  const slots = [...declared, ...inferredSlots(orphans, segments, warnings)];
  return { memoryLayout: finish(slots, options), warnings };
}

/**
 * `--limits` (compat §1.2): the primary scripts decide where sections go (they may be inflated so
 * that an overflowing build links); the limits script gives the LENGTH to measure against.
 */
function reportedLengths(
  regions: LayoutRegion[],
  limits: LayoutRegion[] | undefined,
  warnings: string[],
): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const limit of limits ?? []) {
    const region = regions.find((candidate) => candidate.name === limit.name);
    if (!region) {
      warnings.push(`--limits: region ${limit.name} is not in the primary scripts`);
      continue;
    }
    if (limit.origin !== region.origin) {
      throw new LayoutError(
        `--limits: region ${region.name} starts at 0x${limit.origin.toString(16)} there but at 0x${region.origin.toString(16)} in the primary scripts`,
      );
    }
    lengths.set(region.name, limit.length);
  }
  return lengths;
}

function slotOf(
  name: string,
  type: string,
  address: number,
  limit: number,
  members: LayoutSection[],
): Slot {
  const slot: Slot = {
    name,
    type,
    address,
    limit,
    reportedLimit: limit,
    placed: [],
    lostAssigned: false,
    declared: false,
  };
  for (const section of members)
    place(slot, section, section.address, { charged: false, load: false });
  return slot;
}

/** Compat §2.4: Code (not writable) and Data (writable), placed at their lowest non-zero address. */
function defaultSlots(sections: LayoutSection[]): Slot[] {
  const make = (name: string, type: string, members: LayoutSection[]): Slot => {
    const addresses = members.map((section) => section.address).filter((address) => address !== 0);
    return slotOf(name, type, addresses.length ? Math.min(...addresses) : 0, 0, members);
  };
  return [
    make(
      'Code',
      'rx',
      sections.filter((section) => !section.flags.write),
    ),
    make(
      'Data',
      'rw',
      sections.filter((section) => section.flags.write),
    ),
  ];
}

/** Compat §2.4: one region per PT_LOAD segment holding sections outside every declared region. */
function inferredSlots(
  orphans: LayoutSection[],
  segments: LayoutSegment[],
  warnings: string[],
): Slot[] {
  const bySegment = new Map<LayoutSegment, LayoutSection[]>();
  for (const section of orphans) {
    const segment = segmentHolding(segments, section);
    if (!segment) {
      warnings.push(
        `section ${section.name} at 0x${section.address.toString(16)} is in no memory region and no PT_LOAD segment`,
      );
      continue;
    }
    bySegment.set(segment, [...(bySegment.get(segment) ?? []), section]);
  }
  const inferred = [...bySegment].map(([segment, members]) => ({
    segment,
    members,
    ram: segment.flags.includes('W'),
  }));
  const count = (ram: boolean) => inferred.filter((item) => item.ram === ram).length;
  return inferred.map(({ segment, members, ram }) => {
    const base = ram ? 'RAM (inferred' : 'Flash (inferred';
    const name =
      count(ram) > 1 ? `${base} @0x${segment.virtAddr.toString(16).padStart(8, '0')})` : `${base})`;
    return slotOf(name, ram ? 'RAM' : 'FLASH', segment.virtAddr, segment.memSize, members);
  });
}

/** Bytes covered by the listed sections, overlaps counted once. */
function occupied(placed: Placed[]): number {
  const ranges = placed.map((p) => [p.start, p.end] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reached = -Infinity;
  for (const [start, end] of ranges) {
    if (end <= reached) continue;
    total += end - Math.max(start, reached);
    reached = end;
  }
  return total;
}

/**
 * A section put at the very end of the region with free space below it (a stack placed at the
 * top of RAM): the linker's extent then says the region is full.
 */
function pinnedAtEnd(slot: Slot): boolean {
  const end = slot.address + slot.limit;
  const pinned = slot.placed.find((p) => !p.load && p.end === end && p.end > p.start);
  if (!pinned) return false;
  const below = slot.placed
    .filter((p) => p !== pinned && p.start < pinned.start)
    .reduce((reached, p) => Math.max(reached, p.end), slot.address);
  return pinned.start - below >= Math.max(pinned.alignment, MIN_PIN_GAP);
}

function measure(slot: Slot, assigning: boolean, usage: RegionUsage): Measure {
  if (!assigning || !slot.declared)
    return { used: slot.placed.reduce((sum, p) => sum + p.entry.size, 0), basis: 'address' };
  if (usage === 'occupied') return { used: occupied(slot.placed), basis: 'occupied' };
  const linker = Math.max((slot.current ?? slot.address) - slot.address, 0);
  if (slot.lostAssigned || pinnedAtEnd(slot))
    return { used: occupied(slot.placed), basis: 'occupied', linker };
  const uncharged = slot.placed.filter((p) => !p.charged);
  if (uncharged.length === 0) return { used: linker, basis: 'linker' };
  const reached = uncharged.reduce((end, p) => Math.max(end, p.end), slot.address + linker);
  return { used: reached - slot.address, basis: 'linker_extended', linker };
}

function finish(slots: Slot[], options: BuildLayoutOptions): Record<string, MemoryLayoutRegion> {
  const assigning = options.assignments !== undefined;
  const measures = new Map(
    slots.map((slot) => [slot.name, measure(slot, assigning, options.usage ?? 'extent')]),
  );
  const declaredParents = new Map(
    (options.regions ?? []).flatMap((r) => (r.parent !== undefined ? [[r.name, r.parent]] : [])),
  );
  const declaredChildren = new Map<string, string[]>();
  for (const [child, parent] of declaredParents)
    declaredChildren.set(parent, [...(declaredChildren.get(parent) ?? []), child]);
  const nesting = containers(
    slots
      .filter((slot) => slot.declared && !declaredParents.has(slot.name))
      .filter((slot) => !declaredChildren.has(slot.name))
      .map((slot) => ({ ...slot, holdsSections: slot.placed.length > 0 })),
    (region) => measures.get(region.name)!.used,
  );
  const layout: Record<string, MemoryLayoutRegion> = {};
  for (const slot of slots) {
    const declaredKids = declaredChildren.get(slot.name);
    const children = declaredKids ?? nesting.children.get(slot.name);
    const { used, basis, linker } = declaredKids
      ? {
          used: declaredKids.reduce(
            (sum, child) => sum + measures.get(child)!.used,
            measures.get(slot.name)!.used,
          ),
          basis: 'container' as const,
          linker: undefined,
        }
      : children
        ? {
            used: nesting.used(slot.name),
            basis: 'container' as const,
            linker: undefined,
          }
        : measures.get(slot.name)!;
    const parent = declaredParents.get(slot.name) ?? nesting.parents.get(slot.name);
    layout[slot.name] = {
      address: slot.address,
      limit_size: slot.reportedLimit,
      type: slot.type,
      used_size: used,
      free_size: slot.reportedLimit - used,
      utilization_percent: slot.reportedLimit > 0 ? (used / slot.reportedLimit) * 100 : 0,
      sections: slot.placed.map((p) => p.entry),
      used_size_basis: basis,
      ...(linker !== undefined && { linker_used_size: linker }),
      ...(children && { container: true, children }),
      ...(parent !== undefined && { parent }),
      ...(slot.declared &&
        slot.limit === 0 &&
        slot.placed.every((p) => p.end === p.start) &&
        used === 0 && { placeholder: true }),
    };
  }
  return layout;
}
