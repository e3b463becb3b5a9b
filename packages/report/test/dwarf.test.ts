import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { resolveSources } from '../src/dwarf/index.js';
import { parseElf } from '../src/elf/index.js';
import { codeAddress } from '../src/report/index.js';
import { FIXTURE_DIR, type Variant, binutils, buildFirmware } from './elf-firmware-build.js';
import { type ReadelfDie, parseDies } from './elf-readelf.js';

const VARIANTS: Variant[] = [
  'arm-c-dwarf5',
  'arm-c-dwarf4',
  'arm-cpp',
  'arm-lto',
  'riscv-c',
  'arm-be',
];

/** Source path as we report it: relative to the compile directory (the fixture root) when inside. */
function reported(path: string): string {
  const rel = relative(FIXTURE_DIR, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

function sourceLine(file: string, line: number): string {
  return (
    readFileSync(isAbsolute(file) ? file : join(FIXTURE_DIR, file), 'utf8').split('\n')[line - 1] ??
    ''
  );
}

describe('DWARF source resolution against binutils', () => {
  for (const variant of VARIANTS) {
    it(`resolves ${variant} functions like addr2line and variables like the DIEs say`, () => {
      const fw = buildFirmware(variant);
      try {
        const elf = parseElf(readFileSync(fw.elfPath));
        const defined = elf.symbols.filter(
          (s) =>
            (s.type === 'FUNC' || s.type === 'OBJECT') &&
            s.section !== '' &&
            !s.name.startsWith('$'),
        );
        const requests = defined.map((s) => ({
          kind: s.type === 'FUNC' ? ('function' as const) : ('variable' as const),
          address: codeAddress(elf, s),
          name: s.name,
        }));
        const results = resolveSources(elf, requests);

        // Functions: addr2line at the first instruction.
        const functions = requests
          .map((r, i) => ({ r, result: results[i] }))
          .filter(({ r }) => r.kind === 'function');
        // LTO and the C++ build inline most functions away; the C builds keep eight or more.
        expect(functions.length).toBeGreaterThanOrEqual(
          variant === 'arm-lto' || variant === 'arm-cpp' ? 2 : 8,
        );
        const lines = binutils(fw, 'addr2line', [
          '-e',
          fw.elfPath,
          ...functions.map(({ r }) => r.address.toString(16)),
        ])
          .trim()
          .split('\n');
        for (const [i, { r, result }] of functions.entries()) {
          const [, file, line] = /^(.*):(\d+|\?)(?: \(discriminator \d+\))?$/.exec(lines[i]!) ?? [];
          const expected =
            file === '??' || !file ? undefined : { file: reported(file), line: Number(line) };
          expect({ name: r.name, source: result }).toEqual({ name: r.name, source: expected });
        }

        // Variables: decl_line of the DIE located at the symbol's address (following its
        // specification / abstract origin), and the reported file's line really declares the name.
        const dies = parseDies(binutils(fw, 'readelf', ['--debug-dump=info', fw.elfPath]));
        const located = new Map<number, ReadelfDie[]>();
        for (const die of dies.values())
          if (die.tag === 'DW_TAG_variable' && die.address !== undefined)
            located.set(die.address, [...(located.get(die.address) ?? []), die]);
        const follow = (die: ReadelfDie) => {
          let name = die.name;
          let line = die.declLine;
          for (
            let d = die, hops = 0;
            (name === undefined || line === undefined) && d.reference !== undefined && hops < 8;
            hops++
          ) {
            d = dies.get(d.reference)!;
            name ??= d.name;
            line ??= d.declLine;
          }
          return { name: name!, line: line! };
        };
        let checked = 0;
        for (const [i, r] of requests.entries()) {
          if (r.kind !== 'variable') continue;
          const candidates = (located.get(r.address) ?? []).map(follow);
          if (candidates.length === 0) continue;
          const expected =
            candidates.find(
              (c) =>
                r.name === c.name ||
                r.name.split('.')[0] === c.name ||
                r.name.includes(`${c.name.length}${c.name}`),
            ) ?? candidates[0]!;
          const result = results[i];
          expect({ name: r.name, line: result?.line }).toEqual({
            name: r.name,
            line: expected.line,
          });
          expect(sourceLine(result!.file, result!.line)).toMatch(
            new RegExp(`\\b${expected.name}\\b`),
          );
          checked++;
        }
        expect(checked).toBeGreaterThanOrEqual(
          variant === 'arm-cpp' || variant === 'arm-lto' ? 3 : 5,
        );

        // The fixture's header static, and files in subfolders (LTO drops some of these symbols).
        if (variant !== 'arm-cpp') {
          const expectedFiles: Record<string, string> = {
            ring_overflows: 'include/ring.h',
            net_port: 'src/net/init.c',
            uart_baud: 'src/drivers/uart/uart.c',
            usb_errors: 'src/drivers/usb.c',
            util_checksum: 'lib/util.c',
          };
          const present = Object.entries(expectedFiles).filter(([name]) =>
            defined.some((s) => s.name === name),
          );
          expect(present.length).toBeGreaterThanOrEqual(variant === 'arm-lto' ? 2 : 5);
          for (const [name, file] of present) {
            const files = defined.flatMap((s, i) => (s.name === name ? [results[i]?.file] : []));
            expect({ name, files: [...new Set(files)] }).toEqual({ name, files: [file] });
          }
        }
      } finally {
        fw.cleanup();
      }
    });
  }

  it('reads a DWARF 5 unit paired with a version 3 line table (GCC 12 with binutils 2.40)', () => {
    const fw = buildFirmware('arm-c-dwarf5');
    try {
      const info = binutils(fw, 'readelf', ['--debug-dump=info', fw.elfPath]);
      const lines = binutils(fw, 'readelf', ['--debug-dump=rawline', fw.elfPath]);
      const unitVersions = new Set([...info.matchAll(/^\s+Version:\s+(\d+)/gm)].map((m) => m[1]));
      const lineVersions = new Set([...lines.matchAll(/DWARF Version:\s+(\d+)/g)].map((m) => m[1]));
      // The pairing is what the fixture exists to cover; the resolution itself is checked above.
      expect(unitVersions).toEqual(new Set(['5']));
      expect(lineVersions.has('3') || lineVersions.has('5')).toBe(true);
    } finally {
      fw.cleanup();
    }
  });
});
