import { Inject, Injectable } from '@nestjs/common';
import type { ReportSectionRow, ReportRegionRow, ReportSymbolRow } from '@memtrail/contracts';
import { ClickHouseClient } from '@memtrail/clickhouse';

/** Which rows of a report to read: always the version Postgres says is complete. */
export interface ReportVersion {
  projectId: string;
  targetId: string;
  reportId: string;
  version: number;
}

/** One side's rows of a name group that differs between two reports (see differingGroups). */
export type GroupRow = [
  address: number,
  size: number,
  type: string,
  section: string,
  region: string,
  source_file: string,
  archive: string,
  object_file: string,
  binding: string,
];

export interface DifferingGroup {
  name: string;
  old_rows: GroupRow[];
  new_rows: GroupRow[];
}

export interface SectionBytes {
  report_id: string;
  section: string;
  region: string;
  bytes: number;
}

export interface VersionedSize {
  report_id: string;
  ingest_version: number;
  size: number;
  count: number;
}

interface LayoutRow {
  kind: 'region' | 'section' | 'bytes';
  report_id: string;
  name: string;
  region: string;
  type: string;
  address: number;
  size: number;
  limit_size: number;
}

/** Both reports' rows, told apart by report_id. */
export interface DiffLayouts {
  regions: (ReportRegionRow & { report_id: string })[];
  sections: (ReportSectionRow & { report_id: string })[];
  /** Symbol bytes per section and region (`section_bytes_v1`). */
  bytes: SectionBytes[];
}

export interface FileDelta {
  source_file: string;
  old_size: number;
  new_size: number;
}

const SYMBOL_COLUMNS = `name, full_name, address, size, type, binding, section, region, source_file,
  source_line, archive, object_file`;

/** Sizes come back as numbers: every size and address of firmware fits a double exactly. */
const NUMBERS = { output_format_json_quote_64bit_integers: 0 } as const;

const SIDE = (p: string) =>
  `(report_id = {${p}Id:String} AND ingest_version = {${p}Version:UInt64})`;

/**
 * Named ClickHouse reads of the query service. Every read is keyed by the table's ordering-key
 * prefix (project, target, report) or by the `symbol_sizes` projection / `file_sizes_v1`, and
 * always at the version Postgres records as ingested.
 */
@Injectable()
export class SymbolStore {
  constructor(@Inject(ClickHouseClient) private readonly clickhouse: ClickHouseClient) {}

  private async rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
    const result = await this.clickhouse.query({
      query,
      query_params: params,
      format: 'JSONEachRow',
      clickhouse_settings: NUMBERS,
    });
    return result.json<T>();
  }

  private static params(r: ReportVersion, prefix = '') {
    return {
      projectId: r.projectId,
      targetId: r.targetId,
      [`${prefix}Id`]: r.reportId,
      [`${prefix}Version`]: r.version,
    };
  }

  async regions(r: ReportVersion): Promise<ReportRegionRow[]> {
    const rows = await this.rows<Omit<ReportRegionRow, 'free_size'>>(
      `SELECT name, type, address, limit_size, used_size FROM regions_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${SIDE('')}
       ORDER BY address, name`,
      SymbolStore.params(r),
    );
    return rows.map((row) => ({ ...row, free_size: row.limit_size - row.used_size }));
  }

  async sections(r: ReportVersion): Promise<ReportSectionRow[]> {
    return this.rows<ReportSectionRow>(
      `SELECT name, region, address, size, type FROM sections_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${SIDE('')}
       ORDER BY address, name`,
      SymbolStore.params(r),
    );
  }

  /**
   * Regions, sections and symbol bytes per section of two reports (a diff's layouts) in one
   * read: on the embedded server every query costs several milliseconds before it reads a row.
   */
  async layouts(a: ReportVersion, b: ReportVersion): Promise<DiffLayouts> {
    const where = `project_id = {projectId:String} AND target_id = {targetId:String}
       AND (${SIDE('a')} OR ${SIDE('b')})`;
    const rows = await this.rows<LayoutRow>(
      `SELECT 'region' AS kind, report_id, toString(name) AS name, '' AS region,
              toString(type) AS type, address, used_size AS size, limit_size
       FROM regions_v1 WHERE ${where}
       UNION ALL
       SELECT 'section', report_id, toString(name), toString(region), toString(type), address, size,
              toUInt64(0)
       FROM sections_v1 WHERE ${where}
       UNION ALL
       SELECT 'bytes', report_id, toString(section), toString(region), '', toUInt64(0), sum(size),
              toUInt64(0)
       FROM section_bytes_v1 WHERE ${where}
       GROUP BY report_id, section, region`,
      { ...SymbolStore.params(a, 'a'), ...SymbolStore.params(b, 'b') },
    );
    const layouts: DiffLayouts = { regions: [], sections: [], bytes: [] };
    const byAddress = (x: LayoutRow, y: LayoutRow) =>
      x.address - y.address || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0);
    for (const r of rows.sort(byAddress)) {
      if (r.kind === 'region') {
        layouts.regions.push({
          report_id: r.report_id,
          name: r.name,
          type: r.type,
          address: r.address,
          used_size: r.size,
          limit_size: r.limit_size,
          free_size: r.limit_size - r.size,
        });
      } else if (r.kind === 'section') {
        const { report_id, name, region, type, address, size } = r;
        layouts.sections.push({ report_id, name, region, type, address, size });
      } else {
        layouts.bytes.push({
          report_id: r.report_id,
          section: r.name,
          region: r.region,
          bytes: r.size,
        });
      }
    }
    return layouts;
  }

  /** Every symbol of a report, by address (one contiguous range of the ordering key). */
  async symbols(r: ReportVersion): Promise<ReportSymbolRow[]> {
    return this.rows<ReportSymbolRow>(
      `SELECT ${SYMBOL_COLUMNS} FROM symbols_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${SIDE('')}
       ORDER BY address, symbol_index`,
      SymbolStore.params(r),
    );
  }

  /**
   * Name groups whose rows differ between two reports. A group whose rows, in address order,
   * have the same size, section, region and source on both sides pairs up as unchanged in every
   * pass of the diff cascade, so only the others need to leave ClickHouse. A first pass over the
   * insert-time hashes (`name_hash`, `origin_hash`, migration 0004) keeps every name that is not
   * one row on each side with equal origins; the exact comparison runs on those few groups only.
   */
  async differingGroups(a: ReportVersion, b: ReportVersion): Promise<DifferingGroup[]> {
    const row = `(address, size, type, section, region, source_file, archive, object_file, binding)`;
    const key = `x -> (x.2, x.4, x.5, x.6)`;
    const both = `project_id = {projectId:String} AND target_id = {targetId:String}
         AND (${SIDE('a')} OR ${SIDE('b')})`;
    return this.rows<DifferingGroup>(
      `SELECT name,
         arraySort(groupArrayIf(${row}, ${SIDE('a')})) AS old_rows,
         arraySort(groupArrayIf(${row}, ${SIDE('b')})) AS new_rows
       FROM symbols_v1
       WHERE ${both} AND name_hash IN (
         SELECT name_hash FROM symbols_v1 WHERE ${both}
         GROUP BY name_hash
         HAVING count() != 2 OR countIf(${SIDE('a')}) != 1 OR min(origin_hash) != max(origin_hash))
       GROUP BY name
       HAVING arrayMap(${key}, old_rows) != arrayMap(${key}, new_rows)`,
      { ...SymbolStore.params(a, 'a'), ...SymbolStore.params(b, 'b') },
    );
  }

  /** Per source file, bytes in each of two reports, only files that changed. */
  async fileDeltas(a: ReportVersion, b: ReportVersion): Promise<FileDelta[]> {
    return this.rows<FileDelta>(
      `SELECT source_file, sumIf(size, ${SIDE('a')}) AS old_size, sumIf(size, ${SIDE('b')}) AS new_size
       FROM symbols_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String}
         AND (${SIDE('a')} OR ${SIDE('b')})
       GROUP BY source_file
       HAVING old_size != new_size`,
      { ...SymbolStore.params(a, 'a'), ...SymbolStore.params(b, 'b') },
    );
  }

  /**
   * One symbol name's size in every report version of a target, read through the
   * `symbol_sizes` projection (ordered by project, target, name). Callers keep the versions
   * Postgres marks as ingested.
   */
  async symbolSizes(projectId: string, targetId: string, name: string): Promise<VersionedSize[]> {
    return this.rows<VersionedSize>(
      `SELECT report_id, ingest_version, sum(size) AS size, count() AS count
       FROM symbols_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND name = {name:String}
       GROUP BY report_id, ingest_version`,
      { projectId, targetId, name },
    );
  }

  /**
   * Every symbol name of a clone family in every report version of a target, with its size:
   * `stem` itself and the names that continue it with a compiler clone suffix, raw
   * (`stem.constprop.0`, `stem.lto_priv.0`) or as c++filt prints it (`stem [clone .isra.0]`).
   * Read through the `symbol_sizes` projection (ordered by project, target, name) as three
   * name ranges. Callers keep the names whose clone-stripped form is `stem` and the versions
   * Postgres marks as ingested.
   */
  async cloneFamilySizes(
    projectId: string,
    targetId: string,
    stem: string,
  ): Promise<(VersionedSize & { name: string })[]> {
    const like = stem.replace(/[\\%_]/g, (c) => `\\${c}`);
    return this.rows<VersionedSize & { name: string }>(
      `SELECT report_id, ingest_version, name, sum(size) AS size, count() AS count
       FROM symbols_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String}
         AND (name = {stem:String} OR name LIKE {raw:String} OR name LIKE {printed:String})
       GROUP BY report_id, ingest_version, name`,
      { projectId, targetId, stem, raw: `${like}.%`, printed: `${like} [clone .%` },
    );
  }

  /** The distinct source paths of one report (its build folder is found from them). */
  async sourceFiles(r: ReportVersion): Promise<string[]> {
    const rows = await this.rows<{ source_file: string }>(
      `SELECT DISTINCT source_file FROM symbols_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String} AND ${SIDE('')}`,
      SymbolStore.params(r),
    );
    return rows.map((row) => row.source_file);
  }

  /** One source file's bytes in every report version of a target (`file_sizes_v1`). */
  async fileSizes(projectId: string, targetId: string, path: string): Promise<VersionedSize[]> {
    return this.rows<VersionedSize>(
      `SELECT report_id, ingest_version, sum(size) AS size, sum(symbols) AS count
       FROM file_sizes_v1
       WHERE project_id = {projectId:String} AND target_id = {targetId:String}
         AND source_file = {path:String}
       GROUP BY report_id, ingest_version`,
      { projectId, targetId, path },
    );
  }
}
