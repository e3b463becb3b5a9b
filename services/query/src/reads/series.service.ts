import { Inject, Injectable } from '@nestjs/common';
import type {
  RegionSeries,
  RegionSeriesData,
  SectionSeries,
  SectionSeriesData,
  SeriesRequest,
} from '@memtrail/contracts';
import { storedRegions } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { seriesCommit, SelectionRepository } from './selection.repository.js';

interface StoredSection {
  region: string;
  name: string;
  size: number;
}

/** A column per name, filled with null until a commit has a value for it. */
function column<T extends { name?: string; key?: string }>(
  columns: Map<string, T>,
  key: string,
  create: () => T,
): T {
  let found = columns.get(key);
  if (!found) {
    found = create();
    columns.set(key, found);
  }
  return found;
}

const nulls = (n: number): (number | null)[] => new Array<number | null>(n).fill(null);

/**
 * Region and section series for the dashboard. Both come from the totals Postgres stores with
 * each report (written by the upload from the same report): region totals are part of the
 * target's timeline, section totals are read for the selected reports.
 */
@Injectable()
export class SeriesService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SelectionRepository) private readonly selection: SelectionRepository,
  ) {}

  /**
   * One column per region as the region configuration shows it (merged regions are one line);
   * a region is a placeholder, or unused, when it is so in every commit, and sits where its
   * latest address puts it.
   */
  async regions(req: SeriesRequest): Promise<RegionSeriesData> {
    const target = await this.reports.target(req);
    const { plan } = target;
    const { reports, truncated } = await this.selection.select(target, req.selection);
    const n = reports.length;
    type Column = RegionSeries & { address?: number };
    const columns = new Map<string, Column>();
    reports.forEach((r, i) => {
      for (const u of plan.fold(storedRegions(r.region_totals))) {
        const c = column<Column>(columns, u.name, () => ({
          name: u.name,
          ...plan.presentation(u.name, true),
          used_size: nulls(n),
          limit_size: nulls(n),
          free_size: nulls(n),
        }));
        c.used_size[i] = u.used_size;
        c.limit_size[i] = u.limit_size;
        c.free_size[i] = u.free_size;
        if (u.address !== undefined) c.address = u.address;
        // A placeholder or unused in every commit, the line is hidden until asked for.
        if (!u.placeholder) c.placeholder = false;
        if (u.used_size > 0) Object.assign(c, plan.presentation(u.name, c.placeholder, false));
      }
    });
    return {
      commits: reports.map(seriesCommit),
      regions: plan.sort([...columns.values()]).map(({ address: _address, ...c }) => c),
      truncated,
    };
  }

  async sections(req: SeriesRequest): Promise<SectionSeriesData> {
    const target = await this.reports.target(req);
    const { reports, truncated } = await this.selection.select(target, req.selection);
    const totals = await this.selection.sectionTotals(reports);
    const n = reports.length;
    const wanted = req.names?.length ? new Set(req.names) : null;
    const columns = new Map<string, SectionSeries>();
    reports.forEach((r, i) => {
      const own = totals.get(r.id);
      const stored = (Array.isArray(own) ? own : []) as StoredSection[];
      for (const s of stored) {
        const region = target.plan.canonical(s.region);
        const key = `${region}/${s.name}`;
        if (wanted && !wanted.has(key) && !wanted.has(s.name)) continue;
        const c = column(columns, key, () => ({
          key,
          region,
          name: s.name,
          size: nulls(n),
        }));
        c.size[i] = (c.size[i] ?? 0) + s.size;
      }
    });
    return {
      commits: reports.map(seriesCommit),
      sections: [...columns.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
      truncated,
    };
  }
}
