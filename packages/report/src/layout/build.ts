import type { ReportSection } from '@memtrail/contracts';
import type {
  BuildLayoutOptions,
  LayoutRegion,
  LayoutSection,
  LayoutSegment,
  MemoryLayoutRegion,
  MemoryLayoutResult,
} from './types.js';

/** A layout that cannot be built as asked (e.g. `--limits` moving a region). */
export class LayoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LayoutError';
  }
}

interface Slot {
  name: string;
  address: number;
  /** LENGTH used to attribute sections (always the primary scripts'). */
  limit: number;
  /** LENGTH reported and used for free space and utilization (`--limits` when given). */
  reportedLimit: number;
  type: string;
  sections: ReportSection[];
}

const TYPE_BY_KIND = { flash: 'FLASH', ram: 'RAM', rom: 'ROM', unknown: 'UNKNOWN' } as const;

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

function loadSegments(segments: LayoutSegment[]): LayoutSegment[] {
  return segments.filter((segment) => segment.type === 'PT_LOAD');
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
 * Builds `memory_layout` (compat spec §2.1, §2.4, §4.6): each allocated section goes to the
 * smallest region holding its run address; a PROGBITS section whose load address (from its
 * PT_LOAD segment) differs is listed again at that address in the region holding it.
 */
export function buildMemoryLayout(options: BuildLayoutOptions): MemoryLayoutResult {
  const warnings: string[] = [];
  const skip = new Set(options.skipSections ?? []);
  const allocated = options.sections.filter((section) => section.flags.alloc);
  for (const name of skip) {
    if (!allocated.some((section) => section.name === name))
      warnings.push(`--skip-section ${name}: no allocated section has this name`);
  }
  const sections = allocated.filter((section) => !skip.has(section.name));
  const segments = loadSegments(options.segments);

  if (!options.regions || options.regions.length === 0) {
    warnings.push(
      'no MEMORY regions (no linker script given, or none with a MEMORY block): using default Code/Data regions without size limits',
    );
    return { memoryLayout: finish(defaultSlots(sections), new Map()), warnings };
  }

  const reported = reportedLengths(options.regions, options.limits, warnings);
  const slots: Slot[] = options.regions.map((region) => ({
    name: region.name,
    address: region.origin,
    limit: region.length,
    reportedLimit: reported.get(region.name) ?? region.length,
    type: TYPE_BY_KIND[region.kind ?? 'unknown'],
    sections: [],
  }));
  const declared = [...slots];
  const orphans: LayoutSection[] = [];
  for (const section of sections) {
    const slot = smallestContaining(declared, section.address);
    if (slot) slot.sections.push(entry(section, section.address));
    else orphans.push(section);
    if (section.type === 'NOBITS') continue;
    const segment = segmentHolding(segments, section);
    if (!segment) continue;
    const loadAddress = segment.physAddr + (section.address - segment.virtAddr);
    if (loadAddress === section.address) continue;
    const loadSlot = smallestContaining(declared, loadAddress);
    if (loadSlot) loadSlot.sections.push(entry(section, loadAddress));
    else
      warnings.push(
        `section ${section.name}: load address 0x${loadAddress.toString(16)} is in no memory region`,
      );
  }
  slots.push(...inferredSlots(orphans, segments, warnings));
  return { memoryLayout: finish(slots, nesting(declared)), warnings };
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

/** Compat §2.4: Code (not writable) and Data (writable), placed at their lowest non-zero address. */
function defaultSlots(sections: LayoutSection[]): Slot[] {
  const make = (name: string, type: string, members: LayoutSection[]): Slot => {
    const addresses = members.map((section) => section.address).filter((address) => address !== 0);
    return {
      name,
      type,
      address: addresses.length ? Math.min(...addresses) : 0,
      limit: 0,
      reportedLimit: 0,
      sections: members.map((section) => entry(section, section.address)),
    };
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
    return {
      name,
      address: segment.virtAddr,
      limit: segment.memSize,
      reportedLimit: segment.memSize,
      type: ram ? 'RAM' : 'FLASH',
      sections: members.map((section) => entry(section, section.address)),
    };
  });
}

/** Parent of each region: the smallest other declared region that contains its whole range. */
function nesting(slots: Slot[]): Map<string, string> {
  const parents = new Map<string, string>();
  for (const child of slots) {
    let parent: Slot | undefined;
    for (const candidate of slots) {
      if (candidate === child || candidate.limit <= child.limit) continue;
      const contains =
        child.address >= candidate.address &&
        child.address + child.limit <= candidate.address + candidate.limit;
      if (contains && (!parent || candidate.limit < parent.limit)) parent = candidate;
    }
    if (parent) parents.set(child.name, parent.name);
  }
  return parents;
}

function finish(slots: Slot[], parents: Map<string, string>): Record<string, MemoryLayoutRegion> {
  const own = new Map(
    slots.map((slot) => [slot.name, slot.sections.reduce((sum, section) => sum + section.size, 0)]),
  );
  const children = new Map<string, string[]>();
  for (const [child, parent] of parents)
    children.set(parent, [...(children.get(parent) ?? []), child]);
  const used = (name: string): number =>
    (own.get(name) ?? 0) + (children.get(name) ?? []).reduce((sum, child) => sum + used(child), 0);
  const layout: Record<string, MemoryLayoutRegion> = {};
  for (const slot of slots) {
    const usedSize = used(slot.name);
    const parent = parents.get(slot.name);
    const kids = children.get(slot.name);
    layout[slot.name] = {
      address: slot.address,
      limit_size: slot.reportedLimit,
      type: slot.type,
      used_size: usedSize,
      free_size: slot.reportedLimit - usedSize,
      utilization_percent: slot.reportedLimit > 0 ? (usedSize / slot.reportedLimit) * 100 : 0,
      sections: slot.sections,
      ...(parent !== undefined && { parent }),
      ...(kids !== undefined && { children: kids, own_used_size: own.get(slot.name)! }),
    };
  }
  return layout;
}
