import type { RegionDelta, ReportDiff, SectionDelta, SymbolDelta } from '@memtrail/contracts';
import { bytes, delta, table } from './format.js';

const TOP_SYMBOLS = 20;

function size(value: number | undefined): string {
  return value === undefined ? '-' : String(value);
}

function regionRows(regions: RegionDelta[]): string[][] {
  return regions.map((r) => [
    r.name,
    r.status,
    size(r.old?.used_size),
    size(r.new?.used_size),
    delta(r.used_change),
    r.new && r.new.limit_size > 0 ? bytes(r.new.free_size) : r.new ? 'unknown' : '-',
    r.limit_change === 0 ? '' : `limit ${delta(r.limit_change)}`,
  ]);
}

function sectionRows(sections: SectionDelta[]): string[][] {
  return sections.map((s) => [
    s.region || '(no region)',
    s.load_copy ? `${s.name} (load copy)` : s.name,
    s.status,
    size(s.old?.size),
    size(s.new?.size),
    delta(s.delta),
    delta(s.padding_delta),
  ]);
}

function symbolRows(symbols: SymbolDelta[]): string[][] {
  return symbols.map((s) => {
    const where = (side: SymbolDelta['old']) => (side ? `${side.section}` : '');
    const section =
      s.status === 'moved' ? `${where(s.old)} -> ${where(s.new)}` : where(s.new ?? s.old);
    const source = (s.new ?? s.old)?.source_file ?? '';
    const name = s.old_name ? `${s.name} (was ${s.old_name})` : s.name;
    return [s.status, name, size(s.old?.size), size(s.new?.size), delta(s.delta), section, source];
  });
}

/**
 * The human-readable comparison of two reports: every region, the changed section instances,
 * the largest symbol changes (or all with `allSymbols`) and the totals.
 */
export function renderDiffText(
  diff: ReportDiff,
  labels: { old: string; new: string },
  options: { allSymbols?: boolean } = {},
): string {
  const lines = [`Comparing ${labels.old} -> ${labels.new}`, ''];

  lines.push('Memory Regions');
  if (diff.regions.length === 0) lines.push('No memory regions.');
  else
    lines.push(
      ...table(
        ['Region', 'Status', 'Used (old)', 'Used (new)', 'Change', 'Free (new)', ''],
        regionRows(diff.regions),
        ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
      ),
    );

  const sections = diff.sections.filter((s) => s.status !== 'unchanged');
  lines.push('', 'Sections');
  if (sections.length === 0) lines.push('No section changes.');
  else
    lines.push(
      ...table(
        ['Region', 'Section', 'Status', 'Old', 'New', 'Change', 'Padding'],
        sectionRows(sections),
        ['left', 'left', 'left', 'right', 'right', 'right', 'right'],
      ),
    );

  const changed = diff.symbols;
  const shown = options.allSymbols ? changed : changed.slice(0, TOP_SYMBOLS);
  const t = diff.totals;
  lines.push(
    '',
    `Symbols: ${t.symbols_added} added, ${t.symbols_removed} removed, ` +
      `${t.symbols_modified} modified, ${t.symbols_moved} moved`,
  );
  if (shown.length === 0) lines.push('No symbol changes.');
  else {
    if (shown.length < changed.length)
      lines.push(`Largest ${shown.length} of ${changed.length} changes (--all-symbols lists all)`);
    lines.push(
      ...table(['Status', 'Name', 'Old', 'New', 'Change', 'Section', 'Source'], symbolRows(shown), [
        'left',
        'left',
        'right',
        'right',
        'right',
        'left',
        'left',
      ]),
    );
  }

  const used = diff.regions.reduce((sum, r) => sum + r.used_change, 0);
  const symbolBytes = changed.reduce((sum, s) => sum + s.delta, 0);
  lines.push(
    '',
    `Total: regions ${delta(used)}, symbols ${delta(symbolBytes)}` +
      (t.unplaced_symbols_delta !== 0
        ? ` (of which outside every section ${delta(t.unplaced_symbols_delta)})`
        : ''),
  );
  return lines.join('\n') + '\n';
}
