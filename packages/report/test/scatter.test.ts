import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listLayoutRegions, ScatterError } from '@memtrail/report';
import { parsePreprocessorLine, predefinedMacros, preprocess } from '../src/cpp/index.js';
import { readScatter } from '../src/scatter/index.js';
import { SCATTER_CASES } from './fixtures/scatter/cases.js';
import { SCATTER_ELF_CASES } from './fixtures/scatter/elf/cases.js';
import {
  buildLayoutFirmware,
  coveredBytes,
  linkedLayout,
  type Firmware,
  type TruthSection,
} from './layout-firmware.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'scatter');

describe('scatter files: regions worked out by hand', () => {
  it('covers at least 20 layouts', () => {
    expect(new Set(SCATTER_CASES.map((c) => c.file)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(SCATTER_CASES)('$name', ({ file, defs, searchPaths, regions, warning }) => {
    const result = listLayoutRegions({
      files: [file],
      definitions: Object.entries(defs ?? {}),
      searchPaths: searchPaths?.map((dir) => join(fixtures, dir)),
      cwd: fixtures,
    });
    expect(result.format).toBe('arm-scatter');
    expect(result.regions.map(({ unresolved: _, ...rest }) => rest)).toEqual(regions);
    // Every missing value says why.
    for (const region of result.regions) {
      expect(region.unresolved !== undefined).toBe(
        region.origin === null || region.length === null,
      );
    }
    if (warning) expect(result.warnings.join('\n')).toMatch(warning);
  });
});

describe('scatter-file preprocessing against GNU cpp', () => {
  const preprocessed = [...new Set(SCATTER_CASES.map((c) => c.file))].filter((file) =>
    readFileSync(join(fixtures, file), 'utf8').startsWith('#!'),
  );

  it.each(preprocessed)('%s gives the tokens cpp gives with the #! line options', (file) => {
    const text = readFileSync(join(fixtures, file), 'utf8');
    const [first, ...rest] = text.split('\n');
    const command = parsePreprocessorLine(first!)!;
    const definitions = [...predefinedMacros(command), ...command.definitions];
    const searchPaths = SCATTER_CASES.find((c) => c.file === file)?.searchPaths ?? [];
    const includeDirs = [...command.includeDirs, ...searchPaths];
    const args = [
      ...includeDirs.map((dir) => `-I${dir}`),
      ...definitions.map(([name, value]) =>
        value === undefined ? `-U${name}` : `-D${name}=${value}`,
      ),
    ];
    const cpp = spawnSync(
      'arm-none-eabi-cpp',
      ['-undef', '-nostdinc', '-P', '-x', 'c', ...args, '-'],
      {
        input: ['', ...rest].join('\n'),
        cwd: fixtures,
        encoding: 'utf8',
      },
    );
    expect(cpp.status).toBe(0);
    const ours = preprocess(file, ['', ...rest].join('\n'), {
      includeDirs,
      definitions,
      cwd: fixtures,
    });
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    expect(squeeze(ours.lines.map((l) => l.text).join('\n'))).toBe(squeeze(cpp.stdout));
  });
});

describe('scatter files that armlink refuses', () => {
  it.each([
    [
      'an undefined name',
      'LR 0x0 SIZE { ER 0x0 { *(+RO) } }',
      /1:8: unknown name 'SIZE'.*--def SIZE=VALUE/,
    ],
    [
      'an unclosed load region',
      'LR 0x0 0x100 {\n ER 0x0 { *(+RO) }\n',
      /load region LR is not closed/,
    ],
    [
      'nested execution regions',
      'LR 0x0 { ER 0x0 { ER2 0x10 { } } }',
      /execution regions cannot be nested/,
    ],
    [
      'a negative size without EMPTY',
      'LR 0x0 { ER 0x100 -0x10 { } }',
      /negative size without EMPTY/,
    ],
    ['EMPTY without a length', 'LR 0x0 { ER 0x100 EMPTY { } }', /EMPTY region ER needs a length/],
    ['a region declared twice', 'LR 0x0 { ER 0x0 { } ER 0x10 { } }', /region ER is declared twice/],
    [
      'ImageLimit of a region declared later',
      'LR 0x0 { A ImageLimit(B) { } B 0x100 { } }',
      /imagelimit\(B\): no region B is declared before this point/,
    ],
    ['a region without a base address', 'LR { }', /load region LR has no base address/],
    ['division by zero', 'LR (1/0) { }', /division by zero/],
  ])('refuses %s with the position', (_name, text, message) => {
    expect(() => readScatter('bad.sct', text, { cwd: fixtures })).toThrow(ScatterError);
    expect(() => readScatter('bad.sct', text, { cwd: fixtures })).toThrow(message);
  });

  it('stops at #error, as the preprocessor armlink runs does', () => {
    expect(() => readScatter('bad.sct', '#! armcc -E\n#error no target selected\n')).toThrow(
      /bad\.sct:2:2: #error no target selected/,
    );
  });

  it('warns when a ScatterAssert fails, as armlink would stop the link', () => {
    const model = readScatter(
      'assert.sct',
      'LR 0x0 0x100 { ER 0x0 0x100 { } }\nScatterAssert(0x100 < 0x80)\n',
    );
    expect(model.warnings).toEqual([
      {
        message: 'ScatterAssert failed (armlink would stop the link)',
        position: { file: 'assert.sct', line: 2, column: 1 },
      },
    ]);
  });

  it('needs the include directory of an #include', () => {
    expect(() =>
      listLayoutRegions({ files: ['16-include-from-search-path.sct'], cwd: fixtures }),
    ).toThrow(/cannot find include file 'memory_map.h'/);
  });
});

/** Bytes the listed sections cover: `NAME` at its run address, `NAME@load` at its load address. */
function ownBytes(truth: TruthSection[], entries: string[]): number {
  const ranges: Array<[number, number]> = [];
  for (const entry of entries) {
    const [name, load] = entry.split('@') as [string, string | undefined];
    for (const section of truth.filter((s) => s.name === name && (!load || s.load))) {
      const start = load ? section.lma : section.vma;
      ranges.push([start, start + section.size]);
    }
  }
  return coveredBytes(ranges);
}

describe('scatter files on firmware laid out as armlink does', () => {
  let firmware: Firmware;
  beforeAll(() => {
    firmware = buildLayoutFirmware();
  });
  afterAll(() => firmware.cleanup());

  it.each(SCATTER_ELF_CASES)('$file', (layoutCase) => {
    const { regions, computed, computedSize } = layoutCase;
    const { truth, report, warnings } = linkedLayout(firmware, fixtures, layoutCase);
    const layout = report.memory_layout;
    expect(Object.keys(layout).sort()).toEqual(Object.keys(regions).sort());
    const used = (name: string): number =>
      ownBytes(truth, regions[name]!.own) +
      (regions[name]!.children ?? []).reduce((sum, child) => sum + used(child), 0);
    for (const [name, expected] of Object.entries(regions)) {
      const region = layout[name]!;
      expect({ name, used: region.used_size }).toEqual({ name, used: used(name) });
      // A region something is counted in is never hidden as a zero-length placeholder.
      expect({ name, placeholder: region.placeholder }).toEqual({
        name,
        placeholder: region.used_size > 0 ? undefined : region.placeholder,
      });
      const listed = region.sections.map((s) => s.name).sort();
      expect({ name, listed }).toEqual({
        name,
        listed: expected.own
          .flatMap((entry) => {
            const [section, load] = entry.split('@') as [string, string | undefined];
            return truth.filter((s) => s.name === section && (!load || s.load)).map((s) => s.name);
          })
          .sort(),
      });
      expect({ name, children: region.children }).toEqual({ name, children: expected.children });
      for (const child of expected.children ?? []) expect(layout[child]!.parent).toBe(name);
    }
    // Addresses armlink derives from the image (ImageLimit, +0) agree with the linked layout.
    for (const [region, section] of Object.entries(computed ?? {})) {
      const first = truth.filter((s) => s.name === section).sort((a, b) => a.vma - b.vma)[0]!;
      expect({ region, address: layout[region]!.address }).toEqual({
        region,
        address: first.vma,
      });
    }
    for (const [region, section] of Object.entries(computedSize ?? {})) {
      const size = truth.find((s) => s.name === section)!.size;
      expect({ region, size: layout[region]!.limit_size }).toEqual({ region, size });
    }
    // Every allocated section is listed in a region, nothing twice (load images apart).
    const listed = Object.values(layout).flatMap((r) => r.sections);
    expect(listed.length).toBe(
      truth.length + truth.filter((s) => s.load && s.lma !== s.vma).length,
    );
    expect(warnings.filter((w) => /outside|is in no memory region|left out/.test(w))).toEqual([]);
  });
});
