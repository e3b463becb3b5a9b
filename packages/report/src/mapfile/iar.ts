/**
 * IAR ILINK map files (optional format). The PLACEMENT SUMMARY lists input sections as
 * `␠.text  ro code  0x800'0130  0x10c6  xprintffull.o [2]` (addresses may use `'` as a digit
 * separator; some versions add a column between address and size, so the address is the first
 * number and the size the last). The `[2]` refers to a group of the MODULE SUMMARY,
 * `dl7M_tlf.a: [2]`, which names the archive; groups that are not archives (the project's object
 * directory, `command line`) give no archive. Long section names wrap onto the next line.
 */
import type { MapRange } from './model.js';

/** `  .text  ro code  0x800'0130  0x10c6  main.o [1]` (name in column 3). */
const ROW = /^ {2}(\S+)\s+(.*?)\s+(\S+)\s+\[(\d+)\]\s*$/;
/** The second line of a row whose section name was too long: no name, deeper indentation. */
const CONTINUATION = /^ {3,}(\S.*?)\s+(\S+)\s+\[(\d+)\]\s*$/;
const NAME_ONLY = /^ {2}(\S+)\s*$/;
const GROUP = /^(\S.*?):\s+\[(\d+)\]\s*$/;

/** `0x800'0130`: ILINK may separate digit groups with `'`. */
function hex(token: string): number {
  return parseInt(token.slice(2).replace(/'/g, ''), 16);
}

function section(lines: string[], title: string): string[] {
  const start = lines.findIndex((line) => line.startsWith(`*** ${title}`));
  if (start < 0) return [];
  const end = lines.findIndex((line, k) => k > start + 1 && line.startsWith('*** '));
  return lines.slice(start + 1, end < 0 ? lines.length : end);
}

/** `[N]` → archive path ('' for groups that are not archives). */
function moduleGroups(lines: string[]): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of section(lines, 'MODULE SUMMARY')) {
    const match = GROUP.exec(line);
    if (match) groups.set(match[2]!, /\.(a|lib)$/i.test(match[1]!) ? match[1]! : '');
  }
  return groups;
}

/**
 * ILINK input sections are not named after ELF output sections, so `allocatedSections` does not
 * apply: the placement summary only lists placed (allocated) content anyway.
 */
export function parseIarMap(text: string): MapRange[] {
  const lines = text.split(/\r?\n/);
  const placement = section(lines, 'PLACEMENT SUMMARY');
  if (placement.length === 0) throw new Error('IAR map: no PLACEMENT SUMMARY');
  const groups = moduleGroups(lines);
  const ranges: MapRange[] = [];
  let wrapped: string | null = null;
  for (const line of placement) {
    const nameOnly = NAME_ONLY.exec(line);
    if (nameOnly) {
      wrapped = nameOnly[1]!;
      continue;
    }
    const row = ROW.exec(line);
    const continuation = row || wrapped === null ? null : CONTINUATION.exec(line);
    const name = row ? row[1]! : wrapped;
    wrapped = null;
    const fields = row ? row.slice(2) : continuation?.slice(1);
    if (!fields || name === null || name.startsWith('"')) continue;
    const [columns, object, group] = fields as [string, string, string];
    // Kind words ("ro code", "zero"), then the address, maybe more columns, and the size last.
    const numbers = columns.split(/\s+/).filter((token) => /^0x[0-9a-fA-F']+$/.test(token));
    if (numbers.length < 2) continue;
    const start = hex(numbers[0]!);
    ranges.push({
      start,
      end: start + hex(numbers[numbers.length - 1]!),
      section: name,
      // ILINK places input sections into placement blocks ("P1"), not named output sections.
      outputSection: name,
      archive: groups.get(group) ?? '',
      object,
    });
  }
  return ranges;
}
