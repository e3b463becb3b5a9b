import type { MemoryReport } from '@memtrail/contracts';

/** Per region, stored with the report so lists, changes and budgets need no ClickHouse read. */
export interface RegionTotal {
  address: number;
  type: string;
  limit_size: number;
  used_size: number;
  free_size: number;
}

export interface SectionTotal {
  region: string;
  name: string;
  address: number;
  size: number;
  type: string;
}

export interface Totals {
  regions: Record<string, RegionTotal>;
  sections: SectionTotal[];
}

export function computeTotals(report: MemoryReport): Totals {
  const regions: Record<string, RegionTotal> = {};
  const sections: SectionTotal[] = [];
  for (const [name, region] of Object.entries(report.memory_layout)) {
    regions[name] = {
      address: region.address,
      type: region.type ?? 'UNKNOWN',
      limit_size: region.limit_size,
      used_size: region.used_size,
      free_size: region.free_size ?? region.limit_size - region.used_size,
    };
    for (const section of region.sections ?? []) {
      sections.push({
        region: name,
        name: section.name,
        address: section.address,
        size: section.size,
        type: section.type ?? 'data',
      });
    }
  }
  return { regions, sections };
}

/** Totals as read back from the report row's JSON columns. */
export function storedTotals(regionTotals: unknown, sectionTotals: unknown): Totals {
  return {
    regions: (regionTotals ?? {}) as Record<string, RegionTotal>,
    sections: Array.isArray(sectionTotals) ? (sectionTotals as SectionTotal[]) : [],
  };
}
