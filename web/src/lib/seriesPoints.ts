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

export interface HistoryPoint {
  sha: string;
  /** From the series' commits; null until they are loaded (or for a commit they lack). */
  subject: string | null;
  committed_at: string | null;
  size: number;
  present: boolean;
  count: number;
  /** The names counted: the subject's own where present, unless the answer lists others. */
  names: string[];
}

/** A history's points, with each commit's subject and time from `commits` (a series') when given. */
export function historyPoints(
  data: HistoryData,
  commits: readonly SeriesCommit[] | undefined,
): HistoryPoint[] {
  const bySha = new Map(commits?.map((commit) => [commit.sha, commit]));
  return data.shas.map((sha, i) => {
    const present = data.present[i] ?? false;
    return {
      sha,
      subject: bySha.get(sha)?.subject ?? null,
      committed_at: bySha.get(sha)?.committed_at ?? null,
      size: data.size[i] ?? 0,
      present,
      count: data.count[i] ?? 0,
      names: data.names?.[i] ?? (present ? [data.subject] : []),
    };
  });
}
