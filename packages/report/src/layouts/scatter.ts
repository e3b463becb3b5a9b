/**
 * An Arm scatter file as report regions, and armlink's output sections placed in them.
 *
 * Load regions and execution regions are both reported. armlink names each output section after
 * its execution region (`ER_IROM1`; `RW_IRAM1` twice, its RW part and its ZI part), so a section
 * goes to the execution region of its name, and its load image, when it runs elsewhere (RW data
 * copied to RAM at start-up), to that region's load region. An execution region running in place
 * inside its load region is that load region's child: the load region's used size is its
 * children's plus the load images stored in it, as armlink's map gives a load region's size.
 */
import { loadAddressOf, type LayoutSection, type LayoutSegment } from '../layout/index.js';
import type { ScatterImage, ScatterModel, ScatterRegion } from '../scatter/index.js';
import type { LayoutDescription, RegionListing } from './types.js';

/** What scatter files need from the linked ELF. */
export function scatterImage(
  sections: LayoutSection[],
  segments: LayoutSegment[],
  hasSymbol: (name: string) => boolean,
  headerSize: number,
): ScatterImage {
  const allocated = sections.filter((s) => s.flags.alloc);
  const loads = segments.filter((s) => s.type === 'PT_LOAD');
  return {
    sectionsNamed: (name) =>
      allocated
        .filter((s) => s.name === name)
        .map((s) => ({
          address: s.address,
          size: s.size,
          loadAddress: loadAddressOf(loads, s) ?? s.address,
          nobits: s.type === 'NOBITS',
        })),
    hasSymbol,
    headerSize,
  };
}

function where(region: ScatterRegion): string {
  return `${region.position.file}:${region.position.line}`;
}

function inPlace(region: ScatterRegion, load: ScatterRegion | undefined): boolean {
  if (!load || region.origin === undefined || load.origin === undefined) return false;
  if (load.length === undefined) {
    // Without a maximum size, a load region spans its image: a region running inside it (as `+0`
    // after a region in place) is in place too.
    return (
      region.origin === load.origin ||
      (region.origin > load.origin && region.origin < (load.imageLimit ?? load.origin))
    );
  }
  return (
    region.origin >= load.origin &&
    region.origin + (region.length ?? 0) <= load.origin + load.length
  );
}

export function scatterLayout(model: ScatterModel): LayoutDescription {
  const warnings = model.warnings.map((w) =>
    w.position ? `${w.position.file}:${w.position.line}: ${w.message}` : w.message,
  );
  const byName = new Map(model.regions.map((r) => [r.name, r]));
  const reported = model.regions.filter((region) => {
    if (region.origin !== undefined) return true;
    warnings.push(`${where(region)}: region ${region.name} is left out: ${region.unresolved}`);
    return false;
  });
  const names = new Set(reported.map((r) => r.name));
  for (const region of reported) {
    if (region.length === undefined) {
      warnings.push(
        `${where(region)}: region ${region.name} has no maximum size: its usage is shown without a limit`,
      );
    }
  }
  return {
    format: 'arm-scatter',
    regions: reported.map((region) => {
      const load = region.loadRegion ? byName.get(region.loadRegion) : undefined;
      return {
        name: region.name,
        origin: region.origin!,
        length: region.length ?? 0,
        kind: region.kind,
        ...(load && names.has(load.name) && inPlace(region, load) && { parent: load.name }),
      };
    }),
    assignments: (section) => {
      const region = byName.get(section.name);
      if (region?.type !== 'execution' || !names.has(region.name)) return undefined;
      return {
        region: region.name,
        ...(names.has(region.loadRegion!) && { loadRegion: region.loadRegion! }),
      };
    },
    usage: 'occupied',
    warnings,
    files: model.files,
  };
}

export function scatterListing(model: ScatterModel): RegionListing[] {
  return model.regions.map((region) => ({
    name: region.name,
    origin: region.origin ?? null,
    length: region.length ?? null,
    attributes: region.attributes.join(' '),
    kind: region.kind,
    type: region.type,
    ...(region.loadRegion !== undefined && { load_region: region.loadRegion }),
    ...(region.unresolved !== undefined && { unresolved: region.unresolved }),
  }));
}
