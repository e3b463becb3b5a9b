import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IcfError, listLayoutRegions } from '@memtrail/report';
import { loadIcfFiles } from '../src/icf/index.js';
import { ICF_CASES } from './fixtures/icf/cases.js';
import { ICF_ELF_CASES } from './fixtures/icf/elf/cases.js';
import {
  buildLayoutFirmware,
  coveredBytes,
  linkedLayout,
  type Firmware,
  type TruthSection,
} from './layout-firmware.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'icf');

describe('ICF files: regions worked out by hand', () => {
  it('covers at least 20 layouts', () => {
    expect(new Set(ICF_CASES.flatMap((c) => c.files)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(ICF_CASES)('$name', ({ files, defs, searchPaths, regions, warning }) => {
    const result = listLayoutRegions({
      files,
      definitions: Object.entries(defs ?? {}),
      searchPaths: searchPaths?.map((dir) => join(fixtures, dir)),
      cwd: fixtures,
    });
    expect(result.format).toBe('iar-icf');
    expect(result.regions).toEqual(regions);
    if (warning) expect(result.warnings.join('\n')).toMatch(warning);
  });

  it('defines symbols the way ILINK does, including isdefinedsymbol evaluated last', () => {
    const model = loadIcfFiles(['13-isdefinedsymbol-order.icf'], { cwd: fixtures });
    const value = (name: string) => model.symbols.get(name)?.value;
    expect([value('x'), value('y'), value('z'), value('w')]).toEqual([1n, 1n, 1n, undefined]);
    expect(value('late_seen')).toBe(0x200n);
  });

  it('numbers place directives as ILINK labels their output sections', () => {
    const model = loadIcfFiles(['18-place-forms.icf'], { cwd: fixtures });
    expect(model.placements.map((p) => [p.label, p.placement, p.regions])).toEqual([
      ['START', 'at start', ['ROM']],
      ['ROM', 'in', ['ROM']],
      ['RAM', 'in', ['RAM']],
      ['STACK', 'at end', ['RAM']],
      ['P4', 'in', ['BACKUP']],
      ['A5', 'at address', []],
      ['A6', 'at address', []],
    ]);
  });
});

describe('ICF files ILINK refuses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memtrail-icf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const read = (text: string, defs: Record<string, string> = {}) => {
    writeFileSync(join(dir, 'bad.icf'), text);
    return loadIcfFiles(['bad.icf'], { cwd: dir, definitions: Object.entries(defs) });
  };
  const memory = 'define memory mem with size = 4G;\n';

  it.each([
    [
      'an undefined symbol, suggesting --def',
      `${memory}define region R = mem:[from START size 0x100];`,
      /bad\.icf:2:29: undefined symbol 'START' \(.*--def START=VALUE/,
    ],
    [
      'an unknown directive',
      `${memory}frobnicate the linker;`,
      /bad\.icf:2:1: unknown directive 'frobnicate'/,
    ],
    [
      'a symbol defined twice',
      'define symbol A = 1;\ndefine symbol A = 2;',
      /bad\.icf:2:8: symbol 'A' is already defined \(at bad\.icf:1\)/,
    ],
    [
      'a region defined twice',
      `${memory}define region R = mem:[from 0 size 1];\ndefine region R = mem:[from 2 size 1];`,
      /region 'R' is already defined/,
    ],
    [
      'a literal ending before it starts',
      `${memory}define region R = mem:[from 0x100 to 0xFF];`,
      /region literal ends \(0xff\) before it starts \(0x100\)/,
    ],
    [
      'a range outside its memory',
      'define memory mem with size = 64K;\ndefine region R = mem:[from 0xFF00 size 0x200];',
      /outside memory mem/,
    ],
    [
      'a literal without a memory',
      'define region R = [from 0 size 1];',
      /there is no define memory/,
    ],
    [
      'an unnamed literal with two memories',
      'define memory A with size = 4G;\ndefine memory B with size = 64K;\ndefine region R = [from 0 size 1];',
      /several memories are defined: name one \(A, B\)/,
    ],
    [
      'an error directive in a branch that is taken',
      'if (!isdefinedsymbol(BOARD)) { error "BOARD is not set"; }',
      /bad\.icf:1:32: error "BOARD is not set"/,
    ],
    ['a missing include file', 'include "nope.icf";', /cannot find include file 'nope\.icf'/],
    ['an unterminated comment', '/* open', /unterminated \/\* comment/],
    [
      'a placement in an undefined region',
      `${memory}place in NOWHERE { readonly };`,
      /undefined region 'NOWHERE' in a place directive/,
    ],
    [
      'a bad section selection',
      `${memory}place in [from 0 size 4] { readonly, };`,
      /expected a section selector/,
    ],
  ])('refuses %s with the position', (_name, text, message) => {
    expect(() => read(text)).toThrow(IcfError);
    expect(() => read(text)).toThrow(message);
  });

  it('refuses an include cycle', () => {
    writeFileSync(join(dir, 'a.icf'), 'include "b.icf";');
    writeFileSync(join(dir, 'b.icf'), 'include "a.icf";');
    expect(() => loadIcfFiles(['a.icf'], { cwd: dir })).toThrow(/include cycle/);
  });

  it('refuses a --def that is not a constant', () => {
    expect(() => read(memory, { SIZE: 'OTHER + 1' })).toThrow(
      /--def SIZE=OTHER \+ 1: not a constant/,
    );
  });

  it("stops at the file's own error when no link location is given", () => {
    expect(() =>
      listLayoutRegions({ files: ['05-infineon-tvii-multicore.icf'], cwd: fixtures }),
    ).toThrow(/error "Link location not defined or not supported!"/);
  });
});

function matching(truth: TruthSection[], entry: string): TruthSection[] {
  const at = entry.lastIndexOf('@0x');
  const name = at < 0 ? entry : entry.slice(0, at);
  const address = at < 0 ? undefined : parseInt(entry.slice(at + 3), 16);
  return truth.filter((s) => s.name === name && (address === undefined || s.vma === address));
}

describe('ICF files on firmware laid out as ILINK does', () => {
  let firmware: Firmware;
  beforeAll(() => {
    firmware = buildLayoutFirmware();
  });
  afterAll(() => firmware.cleanup());

  it.each(ICF_ELF_CASES)('$file', (layoutCase) => {
    const { regions, containers } = layoutCase;
    const { truth, report, warnings } = linkedLayout(firmware, fixtures, layoutCase);
    const layout = report.memory_layout;
    expect(Object.keys(layout).sort()).toEqual(Object.keys(regions).sort());
    for (const [name, entries] of Object.entries(regions)) {
      const sections = entries.flatMap((entry) => matching(truth, entry));
      expect(sections.length).toBeGreaterThanOrEqual(entries.length);
      const region = layout[name]!;
      expect({ name, listed: region.sections.map((s) => `${s.name}@${s.address}`).sort() }).toEqual(
        {
          name,
          listed: sections.map((s) => `${s.name}@${s.vma}`).sort(),
        },
      );
      // A container counts what lies in its range (the ranges are checked by hand above).
      const children = containers?.[name];
      const counted = children
        ? truth.filter(
            (s) => s.vma >= region.address && s.vma + s.size <= region.address + region.limit_size,
          )
        : sections;
      expect({ name, used: region.used_size }).toEqual({
        name,
        used: coveredBytes(counted.map((s) => [s.vma, s.vma + s.size])),
      });
      expect({ name, basis: region.used_size_basis, children: region.children }).toEqual({
        name,
        basis: children ? 'container' : 'occupied',
        children,
      });
    }
    // Every allocated section is in exactly one region.
    expect(Object.values(layout).flatMap((r) => r.sections).length).toBe(truth.length);
    expect(warnings.filter((w) => /outside|in no memory region/.test(w))).toEqual([]);
  });
});
