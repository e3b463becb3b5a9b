import type { SectionAssignment } from '../layout/index.js';
import type { LinkerScriptModel } from './load.js';

/** The region and load region each output section statement names, by section name. */
export function sectionAssignments(model: LinkerScriptModel): Map<string, SectionAssignment> {
  const assignments = new Map<string, SectionAssignment>();
  for (const placement of model.placements) {
    if (assignments.has(placement.name)) continue;
    assignments.set(placement.name, {
      ...(placement.region !== undefined && { region: placement.region }),
      ...(placement.loadRegion !== undefined && { loadRegion: placement.loadRegion }),
    });
  }
  return assignments;
}
