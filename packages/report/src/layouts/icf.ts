/**
 * An IAR ICF model as report regions, and ILINK's output sections placed in them.
 *
 * A region is one address range in the report. A region whose ranges are not contiguous (a union
 * with a gap, `A - B` cutting a hole) becomes one report region per range, named `NAME#1`,
 * `NAME#2`… in address order; ranges that touch or overlap are merged first, so a union of
 * adjacent ranges stays `NAME`. The same names are used everywhere (regions listing, report,
 * diff).
 *
 * ILINK names each output section after the placement directive that produced it: the directive's
 * `"name":` label, else `A<n>` (place at) or `P<n>` (place in), n counting directives in file
 * order, sometimes followed by a kind (`P2 rw`, `A0 ro`), and `P2-P3` when it merged two. The
 * section goes to the named region (the piece of it holding the section's address); a directive
 * that names no region (`place at address`) leaves the section to the region holding its address.
 */
import type { LayoutSection, SectionAssignment } from '../layout/index.js';
import { IcfError, icfRegionKinds, type IcfModel, type IcfPlacement } from '../icf/index.js';
import type { LayoutDescription, RegionListing } from './types.js';

interface Piece {
  name: string;
  region: string;
  start: number;
  end: number;
}

function pieces(model: IcfModel, warnings: string[]): Piece[] {
  const result: Piece[] = [];
  for (const region of model.regions) {
    const ranges = region.ranges;
    if (ranges.length === 0) {
      warnings.push(
        `${region.position.file}:${region.position.line}: region ${region.name} is empty ([]): it is not reported`,
      );
      continue;
    }
    ranges.forEach((range, index) => {
      if (range.end > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new IcfError(
          `region ${region.name} reaches 0x${range.end.toString(16)}, beyond what a JSON number holds exactly`,
          region.position,
        );
      }
      result.push({
        name: ranges.length === 1 ? region.name : `${region.name}#${index + 1}`,
        region: region.name,
        start: Number(range.start),
        end: Number(range.end),
      });
    });
  }
  return result;
}

/** The directives whose label an ILINK output-section name carries. */
function placementsNamed(model: IcfModel, sectionName: string): IcfPlacement[] {
  const words = sectionName.split(' ');
  for (const label of [sectionName, words.slice(0, -1).join(' ')]) {
    if (!label) continue;
    const named = model.placements.filter((p) => p.label === label);
    if (named.length > 0) return named;
    const merged = /^([AP])(\d+)-[AP]?(\d+)$/.exec(label);
    if (merged) {
      const [from, to] = [Number(merged[2]), Number(merged[3])];
      return model.placements.filter(
        (p, index) => !p.explicitLabel && index >= from && index <= to,
      );
    }
  }
  return [];
}

function holds(piece: Piece, section: LayoutSection): boolean {
  return (
    (section.address >= piece.start && section.address < piece.end) ||
    (section.size === 0 && section.address === piece.end)
  );
}

export function icfLayout(model: IcfModel, sections: LayoutSection[]): LayoutDescription {
  const warnings = model.warnings.map((w) =>
    w.position ? `${w.position.file}:${w.position.line}: ${w.message}` : w.message,
  );
  const all = pieces(model, warnings);
  const kinds = icfRegionKinds(model);
  const assigned = new Map<LayoutSection, SectionAssignment>();
  for (const section of sections.filter((s) => s.flags.alloc)) {
    const placements = placementsNamed(model, section.name);
    const regionNames = new Set(placements.flatMap((p) => p.regions));
    if (regionNames.size === 0) continue;
    const candidates = all.filter(
      (piece) => regionNames.has(piece.region) && holds(piece, section),
    );
    const best = candidates.sort((a, b) => a.end - a.start - (b.end - b.start))[0];
    if (best) assigned.set(section, { region: best.name });
    else {
      warnings.push(
        `section ${section.name} at 0x${section.address.toString(16)} lies outside ${[...regionNames].join(', ')}, where its placement directive puts it; placing it by address`,
      );
    }
  }
  return {
    format: 'iar-icf',
    regions: all.map((piece) => ({
      name: piece.name,
      origin: piece.start,
      length: piece.end - piece.start,
      kind: kinds.get(piece.region) ?? 'unknown',
    })),
    assignments: (section) => assigned.get(section),
    usage: 'occupied',
    warnings,
    files: model.files,
  };
}

export function icfListing(model: IcfModel): RegionListing[] {
  const kinds = icfRegionKinds(model);
  const declared = new Map(model.regions.map((r) => [r.name, r.declared]));
  return pieces(model, []).map((piece) => ({
    name: piece.name,
    origin: piece.start,
    length: piece.end - piece.start,
    attributes: declared.get(piece.region) ?? '',
    kind: kinds.get(piece.region) ?? 'unknown',
    ...(piece.name !== piece.region && { region: piece.region }),
  }));
}
