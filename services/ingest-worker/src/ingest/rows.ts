import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';

/** Columns every ClickHouse row of one report carries. */
export interface RowContext {
  project_id: string;
  target_id: string;
  report_id: string;
  commit_sha: string;
  /** Milliseconds since the epoch; ClickHouse reads it as DateTime64(3). */
  commit_time: number;
  ingest_version: number;
}

interface RegionSpan {
  name: string;
  start: number;
  end: number;
}

/**
 * Which region a symbol lies in: the smallest region containing its address (Thumb bit
 * cleared), as sections are mapped. Symbols outside every region get ''.
 */
function regionFinder(report: MemoryReport): (address: number) => string {
  const spans: RegionSpan[] = Object.entries(report.memory_layout)
    .map(([name, r]) => ({
      name,
      start: r.address,
      end: r.address + Math.max(r.limit_size, r.used_size),
    }))
    .sort((a, b) => a.end - a.start - (b.end - b.start));
  return (address) => {
    const even = address - (address % 2);
    return spans.find((s) => even >= s.start && even < s.end)?.name ?? '';
  };
}

/** Rows carry only their table's own columns; the writer adds the report's context columns. */
export function regionRows(report: MemoryReport) {
  return Object.entries(report.memory_layout).map(([name, region]) => ({
    name,
    type: region.type ?? 'UNKNOWN',
    address: region.address,
    limit_size: region.limit_size,
    used_size: region.used_size,
  }));
}

export function sectionRows(report: MemoryReport) {
  return Object.entries(report.memory_layout).flatMap(([region, r]) =>
    (r.sections ?? []).map((section) => ({
      region,
      name: section.name,
      address: section.address,
      size: section.size,
      type: section.type ?? 'data',
    })),
  );
}

/** Symbol rows; older CLIs omit source_line, visibility, archive and object_file. */
export function symbolRows(report: MemoryReport) {
  const regionOf = regionFinder(report);
  return report.symbols.map((symbol: ReportSymbol & { full_name?: string }, index) => ({
    symbol_index: index,
    name: symbol.name,
    full_name: symbol.full_name ?? '',
    address: symbol.address,
    size: symbol.size,
    type: symbol.type ?? 'NOTYPE',
    binding: symbol.binding ?? '',
    visibility: symbol.visibility ?? '',
    section: symbol.section ?? '',
    region: regionOf(symbol.address),
    source_file: symbol.source_file ?? '',
    source_line: symbol.source_line ?? 0,
    archive: symbol.archive ?? '',
    object_file: symbol.object_file ?? '',
  }));
}
