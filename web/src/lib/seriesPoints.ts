import type { HistoryData, RegionSeriesData, SeriesCommit } from '@memtrail/contracts';

/**
 * The query service sends series column by column (compact for thousands of commits); charts
 * draw one point per commit. These turn the columns into points once per answer.
 */

export interface RegionUsagePoint {
  used_size: number;
  limit_size: number;
  free_size: number;
}

export interface RegionSeriesPoint extends SeriesCommit {
  /** Region name → usage; regions a commit has no footprint for are absent. */
  regions: Record<string, RegionUsagePoint>;
}

export function regionPoints(data: RegionSeriesData): RegionSeriesPoint[] {
  return data.commits.map((commit, i) => {
    const regions: Record<string, RegionUsagePoint> = {};
    for (const region of data.regions) {
      const used = region.used_size[i];
      if (used === null || used === undefined) continue;
      regions[region.name] = {
        used_size: used,
        limit_size: region.limit_size[i] ?? 0,
        free_size: region.free_size[i] ?? 0,
      };
    }
    return { ...commit, regions };
  });
}

export interface HistoryPoint extends SeriesCommit {
  size: number;
  present: boolean;
  count: number;
}

export function historyPoints(data: HistoryData): HistoryPoint[] {
  return data.commits.map((commit, i) => ({
    ...commit,
    size: data.size[i] ?? 0,
    present: data.present[i] ?? false,
    count: data.count[i] ?? 0,
  }));
}
