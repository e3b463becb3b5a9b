/**
 * LLD `-Map` files: a table `VMA LMA Size Align Out In Symbol` (LLD 7+; older versions have no
 * LMA column) in hex without `0x`. Indentation tells the column: output sections start in the
 * Out column, input sections (`file.o:(.text.foo)`, `lib.a(obj.o):(…)`, `x.rlib(y.o):(…)`) 8
 * characters further, symbols 16.
 */
import { isAllocated, splitInputFile, type MapParseOptions, type MapRange } from './model.js';

const HEADER = /^(\s*)(?:VMA\s+LMA|Address)\s+Size\s+Align\s+Out\s+In\s+Symbol\s*$/;

export function parseLldMap(text: string, options: MapParseOptions = {}): MapRange[] {
  const lines = text.split(/\r?\n/);
  const headerIndex = lines.findIndex((line) => HEADER.test(line));
  if (headerIndex < 0) throw new Error('LLD map: no "Size Align Out In Symbol" header');
  const header = lines[headerIndex]!;
  const columns = header.includes('LMA') ? 4 : 3;
  const outColumn = header.indexOf('Out');
  const row = new RegExp(`^\\s*${'([0-9a-fA-F]+)\\s+'.repeat(columns - 1)}([0-9a-fA-F]+) (.*)$`);
  const ranges: MapRange[] = [];
  let output = '';
  for (const line of lines.slice(headerIndex + 1)) {
    const match = row.exec(line);
    if (!match) continue;
    const content = match[columns + 1]!;
    const indent = line.length - content.trimStart().length - outColumn;
    const text = content.trim();
    if (indent <= 0) {
      output = text;
      continue;
    }
    if (indent >= 16 || !text.endsWith(')')) continue;
    const split = text.lastIndexOf(':(');
    if (split < 0) continue;
    const file = text.slice(0, split);
    if (file === '<internal>' || !isAllocated(output, options)) continue;
    const start = parseInt(match[1]!, 16);
    const size = parseInt(match[columns === 4 ? 3 : 2]!, 16);
    const { archive, object } = splitInputFile(file);
    ranges.push({
      start,
      end: start + size,
      section: text.slice(split + 2, -1),
      outputSection: output,
      archive,
      object,
    });
  }
  return ranges;
}
