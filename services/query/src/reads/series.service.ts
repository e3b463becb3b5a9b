import { Inject, Injectable } from '@nestjs/common';
import type { RegionSeriesData, SectionSeriesData, SeriesRequest } from '@memtrail/contracts';
import { regionUsages } from './report-rows.js';
import { ReportsRepository } from './reports.repository.js';
import { seriesCommit, SelectionRepository } from './selection.repository.js';

interface StoredSection {
  region: string;
  name: string;
  size: number;
}

/**
 * Region and section series for the dashboard. Both come from the totals Postgres stores with
 * each report (written by the upload from the same report), so a series over thousands of
 * commits is one indexed read of small JSON values, not a ClickHouse scan.
 */
@Injectable()
export class SeriesService {
  constructor(
    @Inject(ReportsRepository) private readonly reports: ReportsRepository,
    @Inject(SelectionRepository) private readonly selection: SelectionRepository,
  ) {}

  async regions(req: SeriesRequest): Promise<RegionSeriesData> {
    const target = await this.reports.target(req);
    const { reports, truncated } = await this.selection.select(target, req.selection, 'regions');
    const names = new Set<string>();
    const points = reports.map((r) => {
      const regions = Object.fromEntries(
        regionUsages(r.region_totals).map((u) => {
          names.add(u.name);
          return [u.name, u];
        }),
      );
      return { ...seriesCommit(r), regions };
    });
    return { points, region_names: [...names].sort(), truncated };
  }

  async sections(req: SeriesRequest): Promise<SectionSeriesData> {
    const target = await this.reports.target(req);
    const { reports, truncated } = await this.selection.select(target, req.selection, 'sections');
    const wanted = req.names?.length ? new Set(req.names) : null;
    const keys = new Set<string>();
    const points = reports.map((r) => {
      const sections: Record<string, number> = {};
      for (const s of (Array.isArray(r.section_totals)
        ? r.section_totals
        : []) as StoredSection[]) {
        const key = `${s.region}/${s.name}`;
        if (wanted && !wanted.has(key) && !wanted.has(s.name)) continue;
        sections[key] = (sections[key] ?? 0) + s.size;
        keys.add(key);
      }
      return { ...seriesCommit(r), sections };
    });
    return { points, section_keys: [...keys].sort(), truncated };
  }
}
