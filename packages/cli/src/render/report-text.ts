import type { MemoryReport, ReportRegion } from '@memtrail/contracts';
import { bar, bytes, hex, percent, table } from './format.js';

export interface RegionNode {
  name: string;
  region: ReportRegion;
  depth: number;
  /** Used size as displayed: a container's (or a MemBrowse parent's) is the sum of its children. */
  used: number;
}

function contains(outer: ReportRegion, inner: ReportRegion): boolean {
  return (
    outer.address <= inner.address &&
    inner.address + inner.limit_size <= outer.address + outer.limit_size
  );
}

/**
 * Parents of a report without nesting information (MemBrowse's): a region lying inside another
 * nests under the smallest one holding it; equal ranges nest under the earlier one. Default
 * Code/Data regions have no size and never nest.
 */
function parentsByContainment(entries: [string, ReportRegion][]): Map<string, string> {
  const parentOf = new Map<string, string>();
  entries.forEach(([name, region], index) => {
    if (region.limit_size <= 0) return;
    let best: [string, ReportRegion] | undefined;
    entries.forEach(([otherName, other], otherIndex) => {
      if (otherName === name || other.limit_size <= 0 || !contains(other, region)) return;
      if (other.limit_size === region.limit_size && otherIndex > index) return;
      if (!best || other.limit_size < best[1].limit_size) best = [otherName, other];
    });
    if (best) parentOf.set(name, best[0]);
  });
  return parentOf;
}

/**
 * Regions in display order, children right after their parent. Memtrail reports say which regions
 * are containers (their used size already sums their children); a MemBrowse report does not, and
 * reports 0 for a region around others, so there regions nest by address and a parent shows its
 * own usage plus its children's. Zero-length placeholder regions are left out unless `all`.
 */
export function regionTree(
  layout: Record<string, ReportRegion>,
  options: { all?: boolean } = {},
): RegionNode[] {
  const entries = Object.entries(layout).filter(([, region]) => options.all || !region.placeholder);
  const explicit = entries.some(([, region]) => region.used_size_basis !== undefined);
  const parentOf = explicit
    ? new Map(
        entries.flatMap(([name, region]) =>
          region.parent !== undefined && layout[region.parent] ? [[name, region.parent]] : [],
        ),
      )
    : parentsByContainment(entries);
  const children = (parent: string | undefined) =>
    entries.filter(([name]) => parentOf.get(name) === parent).map(([name]) => name);
  const nodes: RegionNode[] = [];
  const visit = (name: string, depth: number): number => {
    const node: RegionNode = { name, region: layout[name]!, depth, used: layout[name]!.used_size };
    nodes.push(node);
    let sum = 0;
    for (const child of children(name)) sum += visit(child, depth + 1);
    if (!explicit) node.used += sum;
    return node.used;
  };
  for (const root of children(undefined)) visit(root, 0);
  return nodes;
}

function metadataLine(report: MemoryReport): string {
  const entry = report.entry_point === null ? 'unknown' : hex(report.entry_point);
  return [
    `ELF Metadata: ${report.file_path ?? '(none)'}`,
    `Arch: ${report.architecture ?? 'unknown'}`,
    `Machine: ${report.machine ?? 'unknown'}`,
    `Toolchain: ${report.toolchain ?? 'unknown'}`,
    `Entry: ${entry}`,
    `Type: ${report.file_type ?? 'unknown'}`,
  ].join(' | ');
}

function regionRows(nodes: RegionNode[]): string[][] {
  return nodes.map(({ name, region, depth, used }) => {
    const label = `${'  '.repeat(depth)}${name}`;
    if (region.limit_size <= 0) {
      // Default Code/Data regions: no script said how big the memory is.
      const end = region.address + used;
      return [
        label,
        `${hex(region.address)}-${hex(Math.max(region.address, end - 1))}`,
        'unknown',
        bytes(used),
        'unknown',
        '',
      ];
    }
    const free = region.limit_size - used;
    const usage = used / region.limit_size;
    return [
      label,
      `${hex(region.address)}-${hex(region.address + region.limit_size - 1)}`,
      bytes(region.limit_size),
      bytes(used),
      bytes(free),
      `${bar(usage)} ${percent(usage * 100).padStart(6)}`,
    ];
  });
}

function sectionLines(nodes: RegionNode[]): string[] {
  const lines: string[] = [];
  for (const { name, region, depth } of nodes) {
    if (region.sections.length === 0) continue;
    const indent = '  '.repeat(depth + 1);
    lines.push(`${'  '.repeat(depth)}${name}:`);
    const rows = region.sections.map((s) => [
      `${indent}${s.name}`,
      hex(s.address),
      bytes(s.size),
      String(s.type),
    ]);
    const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const row of rows) {
      lines.push(
        [row[0]!.padEnd(widths[0]!), row[1]!, row[2]!.padStart(widths[2]!), row[3]!].join('  '),
      );
    }
  }
  return lines;
}

function symbolLines(report: MemoryReport, all: boolean): string[] {
  const sorted = [...report.symbols].sort(
    (a, b) => b.size - a.size || a.name.localeCompare(b.name),
  );
  const shown = all ? sorted : sorted.slice(0, 20);
  const withMap = report.symbols.some(
    (s) => (s.archive ?? '') !== '' || (s.object_file ?? '') !== '',
  );
  const headers = ['Name', 'Address', 'Size', 'Type', 'Section', 'Source'];
  if (withMap) headers.push('Archive', 'Object');
  const rows = shown.map((s) => {
    const source = s.source_file
      ? `${s.source_file}${s.source_line ? `:${s.source_line}` : ''}`
      : '';
    const row = [s.name, hex(s.address), String(s.size), s.type, s.section, source];
    if (withMap) row.push(s.archive ?? '', s.object_file ?? '');
    return row;
  });
  const title = all
    ? `All Symbols (${sorted.length}, largest first)`
    : `Top ${shown.length} Largest Symbols`;
  const lines = [title, ...table(headers, rows, ['left', 'left', 'right'])];
  const fromSymbolTable = report.symbols.filter((s) => s.source_file_from !== undefined).length;
  if (fromSymbolTable > 0)
    lines.push(
      `Source files of ${fromSymbolTable} symbol(s) come from the symbol table (STT_FILE symbols, through the map file for globals), not from DWARF: basename only, no line.`,
    );
  return lines;
}

/** The human-readable report (compat spec §1.2), one string ending in a newline. */
export function renderReportText(
  report: MemoryReport,
  options: { allSymbols?: boolean } = {},
): string {
  const nodes = regionTree(report.memory_layout);
  const lines = [metadataLine(report), ''];
  if (nodes.length === 0) {
    lines.push('No memory regions.');
  } else {
    lines.push('Memory Regions');
    lines.push(
      ...table(
        ['Region', 'Address Range', 'Size', 'Used', 'Free', 'Utilization'],
        regionRows(nodes),
        ['left', 'left', 'right', 'right', 'right', 'left'],
      ),
    );
    const hidden = Object.keys(report.memory_layout).filter(
      (name) => report.memory_layout[name]!.placeholder,
    );
    if (hidden.length > 0)
      lines.push(`Not shown: ${hidden.length} zero-length region(s): ${hidden.join(', ')}`);
    const sections = sectionLines(nodes);
    if (sections.length > 0) lines.push('', 'Sections', ...sections);
  }
  lines.push('');
  lines.push(
    ...(report.symbols.length > 0
      ? symbolLines(report, options.allSymbols ?? false)
      : ['No symbols.']),
  );
  return lines.join('\n') + '\n';
}
