/** Formatting shared by the text and Markdown renderers. */

export function hex(value: number, digits = 8): string {
  return `0x${value.toString(16).toUpperCase().padStart(digits, '0')}`;
}

/** Byte counts stay exact below 1 KiB, then one decimal: `413 B`, `1.5 KB`, `256.0 KB`. */
export function bytes(value: number): string {
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (abs < 1024) return `${value} B`;
  if (abs < 1024 * 1024) return `${sign}${(abs / 1024).toFixed(1)} KB`;
  return `${sign}${(abs / (1024 * 1024)).toFixed(2)} MB`;
}

/** Signed, exact deltas for changes: `+13 B`, `-4 B`, `0 B`. */
export function delta(value: number): string {
  return `${value > 0 ? '+' : ''}${value} B`;
}

export function percent(value: number): string {
  return `${value.toFixed(1)}%`;
}

/** `[########............]` with `width` cells, full beyond 100%. */
export function bar(fraction: number, width = 20): string {
  const filled = Math.max(0, Math.min(width, Math.round(fraction * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

export type Align = 'left' | 'right';

/** A plain-text table: columns padded to their widest cell, two spaces apart. */
export function table(headers: string[], rows: string[][], align: Align[] = []): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        align[i] === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}
