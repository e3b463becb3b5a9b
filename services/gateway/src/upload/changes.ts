import type {
  ChangesSummary,
  RegionChange,
  SectionChange,
  UploadChanges,
} from '@memtrail/contracts';
import type { SectionTotal, Totals } from './totals.js';

/**
 * Sections are matched by region and name; a name that repeats within a region (rare: two
 * output sections of one name) is matched by its position among those of that name.
 */
function sectionKeys(sections: SectionTotal[]): Map<string, SectionTotal> {
  const seen = new Map<string, number>();
  const keyed = new Map<string, SectionTotal>();
  for (const section of sections) {
    const base = `${section.region}\u0000${section.name}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    keyed.set(`${base}\u0000${n}`, section);
  }
  return keyed;
}

/** Region and section changes against the parent's totals (empty when there is no parent). */
export function totalsChanges(
  current: Totals,
  parent: Totals | null,
): Pick<UploadChanges, 'regions' | 'sections'> {
  const regions = {
    added: [] as RegionChange[],
    removed: [] as RegionChange[],
    modified: [] as RegionChange[],
  };
  const sections = {
    added: [] as SectionChange[],
    removed: [] as SectionChange[],
    modified: [] as SectionChange[],
  };
  if (!parent) return { regions: { modified: [] }, sections: { modified: [] } };

  for (const [name, now] of Object.entries(current.regions)) {
    const before = parent.regions[name];
    const change = { name, used_size: now.used_size, limit_size: now.limit_size };
    if (!before) regions.added.push({ ...change, old: { used_size: 0 } });
    else if (before.used_size !== now.used_size || before.limit_size !== now.limit_size) {
      regions.modified.push({
        ...change,
        old: { used_size: before.used_size, limit_size: before.limit_size },
      });
    }
  }
  for (const [name, before] of Object.entries(parent.regions)) {
    if (!current.regions[name]) {
      regions.removed.push({
        name,
        used_size: 0,
        limit_size: 0,
        old: { used_size: before.used_size },
      });
    }
  }

  const now = sectionKeys(current.sections);
  const then = sectionKeys(parent.sections);
  for (const [key, section] of now) {
    const before = then.get(key);
    const change = { name: section.name, region: section.region, size: section.size };
    if (!before) sections.added.push({ ...change, old: { size: 0 } });
    else if (before.size !== section.size)
      sections.modified.push({ ...change, old: { size: before.size } });
  }
  for (const [key, before] of then) {
    if (!now.has(key))
      sections.removed.push({
        name: before.name,
        region: before.region,
        size: 0,
        old: { size: before.size },
      });
  }
  return { regions, sections };
}

/** `{region: {used_change, free_change}}` for every region of either build. */
export function changesSummary(current: Totals, parent: Totals | null): ChangesSummary {
  const summary: ChangesSummary = {};
  if (!parent) return summary;
  const names = new Set([...Object.keys(current.regions), ...Object.keys(parent.regions)]);
  for (const name of names) {
    const now = current.regions[name];
    const before = parent.regions[name];
    summary[name] = {
      used_change: (now?.used_size ?? 0) - (before?.used_size ?? 0),
      free_change: (now?.free_size ?? 0) - (before?.free_size ?? 0),
    };
  }
  return summary;
}
