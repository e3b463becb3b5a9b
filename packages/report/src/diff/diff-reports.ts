import type {
  MemoryReport,
  RegionDelta,
  ReportDiff,
  ReportSymbol,
  SectionDelta,
  SymbolDelta,
  SymbolSide,
  SymbolStatus,
} from '@memtrail/contracts';
import { matchSymbols } from './match-symbols.js';
import { placeReport, type PlacedSection } from './placement.js';
import { regionRenames, withRegionsRenamed } from './region-renames.js';

export interface DiffOptions {
  /** Also list matched symbols whose size, section and source did not change. */
  includeUnchanged?: boolean;
  /** Also list changes of symbols with 0 bytes on both sides (LTO markers, labels). */
  includeZeroSize?: boolean;
}

/**
 * Compares two reports: regions, section instances with padding rows, and symbols. A region
 * renamed between them (regionRenames) is compared under its new name, so its sections and
 * symbols line up instead of all moving.
 */
export function diffReports(
  original: MemoryReport,
  newReport: MemoryReport,
  options: DiffOptions = {},
): ReportDiff {
  const renames = regionRenames(original.memory_layout ?? {}, newReport.memory_layout ?? {});
  const oldReport = withRegionsRenamed(original, renames);
  const oldPlaced = placeReport(oldReport);
  const newPlaced = placeReport(newReport);
  const symbols: SymbolDelta[] = [];
  const totals = {
    symbols_added: 0,
    symbols_removed: 0,
    symbols_modified: 0,
    symbols_moved: 0,
    unplaced_symbols_delta: 0,
    zero_size_changes: 0,
  };

  // Uploads from older CLIs may omit fields (compat spec §2.7): missing lists count as empty.
  const oldSymbols = oldReport.symbols ?? [];
  const newSymbols = newReport.symbols ?? [];
  for (const pair of matchSymbols(oldSymbols, newSymbols)) {
    const oldSide =
      pair.old === null
        ? null
        : side(oldSymbols[pair.old]!, oldPlaced.symbolSection[pair.old] ?? null);
    const newSide =
      pair.new === null
        ? null
        : side(newSymbols[pair.new]!, newPlaced.symbolSection[pair.new] ?? null);
    const delta = (newSide?.size ?? 0) - (oldSide?.size ?? 0);
    if (pair.old !== null && oldPlaced.symbolSection[pair.old] === null)
      totals.unplaced_symbols_delta -= oldSide!.size;
    if (pair.new !== null && newPlaced.symbolSection[pair.new] === null)
      totals.unplaced_symbols_delta += newSide!.size;
    const status = symbolStatus(oldSide, newSide);
    if (status === 'unchanged' && !options.includeUnchanged) continue;
    if (status !== 'unchanged' && !oldSide?.size && !newSide?.size) {
      totals.zero_size_changes++;
      if (!options.includeZeroSize) continue;
    }
    if (status !== 'unchanged') totals[`symbols_${status}`]++;
    const oldName = pair.old === null ? undefined : oldSymbols[pair.old]!.name;
    const name = pair.new === null ? oldName! : newSymbols[pair.new]!.name;
    symbols.push({
      name,
      ...(oldName !== undefined && oldName !== name ? { old_name: oldName } : {}),
      status,
      match_level: pair.level,
      old: oldSide,
      new: newSide,
      delta,
    });
  }
  symbols.sort(
    (a, b) =>
      Math.abs(b.delta) - Math.abs(a.delta) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );

  const oldNames = new Map([...renames].map(([from, to]) => [to, from]));
  return {
    regions: diffRegions(oldReport, newReport, oldNames),
    sections: diffSections(oldPlaced.sections, newPlaced.sections),
    symbols,
    totals,
  };
}

function side(sym: ReportSymbol, placed: PlacedSection | null): SymbolSide {
  return {
    address: sym.address,
    size: sym.size ?? 0,
    section: sym.section ?? '',
    region: placed?.region ?? '',
    source_file: sym.source_file ?? '',
    type: sym.type ?? '',
    archive: sym.archive ?? '',
    object_file: sym.object_file ?? '',
  };
}

function symbolStatus(oldSide: SymbolSide | null, newSide: SymbolSide | null): SymbolStatus {
  if (!oldSide) return 'added';
  if (!newSide) return 'removed';
  const sourceChanged =
    oldSide.source_file !== '' &&
    newSide.source_file !== '' &&
    oldSide.source_file !== newSide.source_file;
  // A size change is never hidden behind a move: the sides still show where it went.
  if (oldSide.size !== newSide.size) return 'modified';
  if (oldSide.section !== newSide.section || oldSide.region !== newSide.region || sourceChanged)
    return 'moved';
  return 'unchanged';
}

function diffRegions(
  oldReport: MemoryReport,
  newReport: MemoryReport,
  /** New name → old name of renamed regions. */
  oldNames: ReadonlyMap<string, string>,
): RegionDelta[] {
  const oldLayout = oldReport.memory_layout ?? {};
  const newLayout = newReport.memory_layout ?? {};
  const names = [...new Set([...Object.keys(newLayout), ...Object.keys(oldLayout)])];
  return names.map((name) => {
    const o = oldLayout[name];
    const n = newLayout[name];
    const pick = (r: typeof o) =>
      r
        ? {
            address: r.address,
            limit_size: r.limit_size,
            used_size: r.used_size,
            free_size: r.free_size,
          }
        : null;
    const used_change = (n?.used_size ?? 0) - (o?.used_size ?? 0);
    const free_change = (n?.free_size ?? 0) - (o?.free_size ?? 0);
    const limit_change = (n?.limit_size ?? 0) - (o?.limit_size ?? 0);
    const status = !o
      ? 'added'
      : !n
        ? 'removed'
        : used_change || free_change || limit_change
          ? 'modified'
          : 'unchanged';
    const oldName = oldNames.get(name);
    return {
      name,
      ...(oldName !== undefined ? { old_name: oldName } : {}),
      status,
      old: pick(o),
      new: pick(n),
      used_change,
      free_change,
      limit_change,
    };
  });
}

function diffSections(
  oldSections: Map<string, PlacedSection>,
  newSections: Map<string, PlacedSection>,
): SectionDelta[] {
  const keys = [...new Set([...newSections.keys(), ...oldSections.keys()])];
  return keys.map((key) => {
    const o = oldSections.get(key);
    const n = newSections.get(key);
    const pick = (s: PlacedSection | undefined) =>
      s ? { address: s.address, size: s.size, padding: s.size - s.symbolBytes } : null;
    const oldSide = pick(o);
    const newSide = pick(n);
    const delta = (n?.size ?? 0) - (o?.size ?? 0);
    const symbols_delta = (n?.symbolBytes ?? 0) - (o?.symbolBytes ?? 0);
    return {
      name: (n ?? o)!.name,
      region: (n ?? o)!.region,
      load_copy: (n ?? o)!.loadCopy,
      status: !o ? 'added' : !n ? 'removed' : delta !== 0 ? 'modified' : 'unchanged',
      old: oldSide,
      new: newSide,
      delta,
      symbols_delta,
      padding_delta: (newSide?.padding ?? 0) - (oldSide?.padding ?? 0),
    };
  });
}
