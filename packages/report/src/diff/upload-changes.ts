import type {
  ChangesSummary,
  ReportDiff,
  SymbolChangeRow,
  SymbolDelta,
  UploadChanges,
} from '@memtrail/contracts';

/** UploadChanges with its optional added/removed lists always present. */
type FullChanges = { [K in keyof UploadChanges]: Required<UploadChanges[K]> };

/** The `changes` object of the upload response (compat spec §3.2) from a diff. */
export function toUploadChanges(diff: ReportDiff): UploadChanges {
  const changes: FullChanges = {
    regions: { added: [], removed: [], modified: [] },
    sections: { added: [], removed: [], modified: [] },
    symbols: { added: [], removed: [], modified: [], moved: [] },
  };
  for (const r of diff.regions) {
    const used = r.new?.used_size ?? 0;
    const limit = r.new?.limit_size ?? r.old?.limit_size ?? 0;
    const old = { used_size: r.old?.used_size ?? 0, limit_size: r.old?.limit_size ?? 0 };
    if (r.status === 'added' || r.status === 'removed')
      changes.regions[r.status].push({ name: r.name, used_size: used, limit_size: limit, old });
    else if (r.used_change !== 0)
      changes.regions.modified.push({
        name: r.name,
        used_size: used,
        limit_size: limit,
        old: { used_size: old.used_size },
      });
  }
  for (const s of diff.sections) {
    if (s.status === 'unchanged') continue;
    changes.sections[s.status].push({
      name: s.name,
      region: s.region,
      size: s.new?.size ?? 0,
      old: { size: s.old?.size ?? 0 },
    });
  }
  for (const sym of diff.symbols) {
    if (sym.status !== 'unchanged') changes.symbols[sym.status].push(changeRow(sym));
  }
  return changes;
}

function changeRow(sym: SymbolDelta): SymbolChangeRow {
  const current = sym.new ?? sym.old!;
  const row: SymbolChangeRow = {
    name: sym.name,
    source_file: current.source_file,
    section: current.section,
    size: sym.new?.size ?? 0,
    delta: sym.delta,
    address: current.address,
  };
  if (sym.old) row.old = { size: sym.old.size, section: sym.old.section, address: sym.old.address };
  return row;
}

/** `changes_summary`: used and free change of every region of the new report. */
export function toChangesSummary(diff: ReportDiff): ChangesSummary {
  const summary: ChangesSummary = {};
  for (const r of diff.regions) {
    if (r.new) summary[r.name] = { used_change: r.used_change, free_change: r.free_change };
  }
  return summary;
}
