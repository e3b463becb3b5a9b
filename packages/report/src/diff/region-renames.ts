import type { MemoryReport, ReportRegion } from '@memtrail/contracts';

/**
 * Regions renamed between two reports (old name → new name): a region only the old report has
 * and one only the new report has that start at the same address are the same memory under a
 * new name (ChibiOS's `flash` became `flash0`). Only one-to-one pairs count, so zero-length
 * placeholders sharing an address are never paired by guess.
 */
export function regionRenames(
  oldLayout: Record<string, ReportRegion>,
  newLayout: Record<string, ReportRegion>,
): Map<string, string> {
  const onlyIn = (layout: Record<string, ReportRegion>, other: Record<string, ReportRegion>) => {
    const byAddress = new Map<number, string[]>();
    for (const [name, region] of Object.entries(layout)) {
      if (name in other) continue;
      byAddress.set(region.address, [...(byAddress.get(region.address) ?? []), name]);
    }
    return byAddress;
  };
  const olds = onlyIn(oldLayout, newLayout);
  const news = onlyIn(newLayout, oldLayout);
  const renames = new Map<string, string>();
  for (const [address, [oldName, ...moreOld]] of olds) {
    const [newName, ...moreNew] = news.get(address) ?? [];
    if (oldName && newName && moreOld.length === 0 && moreNew.length === 0)
      renames.set(oldName, newName);
  }
  return renames;
}

/** The report with its regions renamed (the layout only: symbols name sections, not regions). */
export function withRegionsRenamed(
  report: MemoryReport,
  renames: ReadonlyMap<string, string>,
): MemoryReport {
  if (renames.size === 0) return report;
  const layout: Record<string, ReportRegion> = {};
  for (const [name, region] of Object.entries(report.memory_layout ?? {}))
    layout[renames.get(name) ?? name] = region;
  return { ...report, memory_layout: layout };
}
