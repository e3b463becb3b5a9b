import type { MemoryReport, ReportSymbol } from '@memtrail/contracts';

/** A section instance of a report: a section name in a region, with the symbols inside it. */
export interface PlacedSection {
  key: string;
  name: string;
  region: string;
  address: number;
  size: number;
  loadCopy: boolean;
  symbolBytes: number;
}

export interface Placement {
  sections: Map<string, PlacedSection>;
  /** Section key of each symbol (by index into report.symbols), or null when outside. */
  symbolSection: Array<PlacedSection | null>;
}

/**
 * Places each section instance and each symbol. Symbols hold run addresses, so a symbol belongs
 * to the instance of its section whose range contains the address (Thumb bit cleared for
 * functions); the other instance of a duplicated section is its load copy.
 */
export function placeReport(report: MemoryReport): Placement {
  const sections = new Map<string, PlacedSection>();
  const byName = new Map<string, PlacedSection[]>();
  for (const [region, info] of Object.entries(report.memory_layout ?? {})) {
    const seen = new Map<string, number>();
    // Same-named instances in one region (a load copy next to its run copy) in address order.
    const ordered = [...(info.sections ?? [])].sort((a, b) => a.address - b.address);
    for (const s of ordered) {
      const n = seen.get(s.name) ?? 0;
      seen.set(s.name, n + 1);
      const key = n === 0 ? `${region}\u0000${s.name}` : `${region}\u0000${s.name}\u0000${n}`;
      const placed: PlacedSection = {
        key,
        name: s.name,
        region,
        address: s.address,
        size: s.size,
        loadCopy: false,
        symbolBytes: 0,
      };
      sections.set(key, placed);
      const list = byName.get(s.name) ?? [];
      list.push(placed);
      byName.set(s.name, list);
    }
  }
  const symbolSection = (report.symbols ?? []).map((sym) =>
    findSection(byName.get(sym.section ?? ''), sym),
  );
  for (const [index, placed] of symbolSection.entries()) {
    if (placed) placed.symbolBytes += report.symbols[index]!.size ?? 0;
  }
  for (const list of byName.values()) {
    if (list.length < 2) continue;
    // Copies that hold no symbol while a sibling does are load images.
    const holders = new Set(symbolSection.filter((p) => p && list.includes(p)));
    if (holders.size > 0) for (const p of list) p.loadCopy = !holders.has(p);
  }
  return { sections, symbolSection };
}

function findSection(
  candidates: PlacedSection[] | undefined,
  sym: ReportSymbol,
): PlacedSection | null {
  if (!candidates) return null;
  if (candidates.length === 1) return candidates[0]!;
  const address = sym.type === 'FUNC' ? sym.address - (sym.address % 2) : sym.address;
  return (
    candidates.find((c) => address >= c.address && address < c.address + c.size) ??
    candidates.find((c) => address === c.address + c.size) ??
    candidates[0]!
  );
}
