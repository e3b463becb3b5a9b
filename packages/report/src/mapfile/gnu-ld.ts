/**
 * GNU ld `-Map` files: the "Linker script and memory map" part lists every input section under
 * its output section, as `␠.text.foo 0xADDR 0xSIZE file`, or with the name alone on one line and
 * the address, size and file on the next when the name is long. `*fill*` lines, symbol lines and
 * the "Discarded input sections" part carry no attribution.
 */
import { isAllocated, splitInputFile, type MapParseOptions, type MapRange } from './model.js';

const OUTPUT_SECTION = /^(\S+)(?:\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+))?/;
const INPUT_FULL = /^ (\S+)\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(\S.*?)\s*$/;
const INPUT_NAME_ONLY = /^ (\S+)\s*$/;
const INPUT_CONTINUATION = /^\s+0x([0-9a-fA-F]+)\s+0x([0-9a-fA-F]+)\s+(\S.*?)\s*$/;
/** Section names that start lines in the map but are statements, not sections. */
const STATEMENTS =
  /^(LOAD|OUTPUT|START GROUP|END GROUP|INPUT|\*\(|\*fill\*|\.\s*=|PROVIDE|ASSERT|[A-Za-z_][A-Za-z0-9_]*\s*=)/;

export function parseGnuLdMap(text: string, options: MapParseOptions = {}): MapRange[] {
  const lines = text.split(/\r?\n/);
  let i = lines.findIndex((line) => line.startsWith('Linker script and memory map'));
  if (i < 0) throw new Error('GNU ld map: no "Linker script and memory map" part');
  const ranges: MapRange[] = [];
  let output = '';
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '' || line.startsWith('LOAD ') || line.startsWith('OUTPUT(')) continue;
    if (line[0] !== ' ') {
      const match = OUTPUT_SECTION.exec(line);
      if (match && !STATEMENTS.test(line)) output = match[1]!;
      continue;
    }
    let section: string;
    let address: string;
    let size: string;
    let file: string;
    const full = INPUT_FULL.exec(line);
    if (full) {
      [, section, address, size, file] = full as unknown as [
        string,
        string,
        string,
        string,
        string,
      ];
    } else {
      const nameOnly = INPUT_NAME_ONLY.exec(line);
      const next = lines[i + 1];
      const continuation = nameOnly && next !== undefined ? INPUT_CONTINUATION.exec(next) : null;
      if (!nameOnly || !continuation) continue;
      section = nameOnly[1]!;
      [, address, size, file] = continuation as unknown as [string, string, string, string];
      i++;
    }
    if (section === '*fill*' || section.startsWith('*(') || !isAllocated(output, options)) continue;
    // Linker-generated input (`linker stubs`, `*ABS*`) names no object.
    if (file.startsWith('linker stubs') || file === '*ABS*') continue;
    const start = parseInt(address, 16);
    const { archive, object } = splitInputFile(file);
    ranges.push({
      start,
      end: start + parseInt(size, 16),
      section,
      outputSection: output,
      archive,
      object,
    });
  }
  return ranges;
}
