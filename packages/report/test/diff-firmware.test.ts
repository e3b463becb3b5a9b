import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MemoryReport } from '@memtrail/contracts';
import { diffReports, toChangesSummary, toUploadChanges } from '../src/diff/index.js';
import { generateReport } from '../src/report/index.js';

// Two builds of the map-file firmware; the second (-DV2) grows a buffer and adds a function.
const fixtures = join(import.meta.dirname, 'fixtures', 'mapfile');
const script = join(fixtures, 'firmware.ld');
const work = mkdtempSync(join(tmpdir(), 'memtrail-diff-fw-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function build(name: string, defines: string[]): MemoryReport {
  const dir = join(work, name);
  execFileSync('mkdir', ['-p', dir]);
  const flags = [
    '-mcpu=cortex-m4',
    '-mthumb',
    '-O1',
    '-g',
    '-ffunction-sections',
    '-fdata-sections',
    '-fcommon',
    ...defines,
  ];
  for (const f of ['startup', 'main', 'util', 'crc']) {
    execFileSync('arm-none-eabi-gcc', [
      ...flags,
      '-c',
      join(fixtures, `${f}.c`),
      '-o',
      join(dir, `${f}.o`),
    ]);
  }
  execFileSync('arm-none-eabi-ar', [
    'rcs',
    join(dir, 'libutil.a'),
    join(dir, 'util.o'),
    join(dir, 'crc.o'),
  ]);
  const libgcc = execFileSync('arm-none-eabi-gcc', [
    '-mcpu=cortex-m4',
    '-mthumb',
    '-print-libgcc-file-name',
  ])
    .toString()
    .trim();
  const elf = join(dir, 'fw.elf');
  const map = join(dir, 'fw.map');
  execFileSync(
    'arm-none-eabi-gcc',
    [
      ...flags,
      '-nostdlib',
      '-T',
      script,
      'startup.o',
      'main.o',
      'libutil.a',
      libgcc,
      '-Wl,-Map=fw.map',
      '-o',
      elf,
    ],
    { cwd: dir },
  );
  return generateReport({ elf, linkerScripts: [script], mapFile: map });
}

describe('diff of two reports of real firmware', () => {
  let before: MemoryReport;
  let after: MemoryReport;

  beforeAll(() => {
    before = build('v1', []);
    after = build('v2', ['-DV2']);
  });

  it('reports the grown buffer, the new function and reconciled sections and regions', () => {
    const diff = diffReports(before, after, { includeUnchanged: true });
    const rx = diff.symbols.find((s) => s.name === 'rx_buffer')!;
    expect(rx).toMatchObject({ status: 'modified', match_level: 1, delta: 256 });
    expect(rx.new).toMatchObject({ section: '.bss', region: 'RAM', object_file: 'main.o' });
    const added = diff.symbols.find((s) => s.name === 'v2_feature')!;
    expect(added).toMatchObject({
      status: 'added',
      new: { section: '.text', region: 'FLASH', source_file: expect.stringContaining('main.c') },
    });

    // Every section and region reconciles exactly with the symbol rows and padding.
    for (const s of diff.sections) expect(s.delta).toBe(s.symbols_delta + s.padding_delta);
    for (const r of diff.regions) {
      const sections = diff.sections
        .filter((s) => s.region === r.name)
        .reduce((sum, s) => sum + s.delta, 0);
      expect(r.used_change).toBe(sections);
    }
    const bss = diff.sections.find((s) => s.region === 'RAM' && s.name === '.bss')!;
    expect(bss.delta).toBe(256);
    const text = diff.sections.find((s) => s.region === 'FLASH' && s.name === '.text')!;
    expect(text.delta).toBeGreaterThan(0);
    expect(text.symbols_delta + text.padding_delta).toBe(text.delta);

    // The archive members did not change.
    for (const name of ['util_checksum', 'crc8', '__aeabi_uldivmod']) {
      const row = diff.symbols.find((s) => s.name === name)!;
      expect(row.status).toBe('unchanged');
      expect(row.new?.archive).toMatch(/lib(util|gcc)\.a$/);
    }
  });

  it('gives the upload response its changes and summary', () => {
    const diff = diffReports(before, after);
    const changes = toUploadChanges(diff);
    const ramBefore = before.memory_layout.RAM!.used_size;
    expect(changes.regions.modified).toContainEqual({
      name: 'RAM',
      used_size: ramBefore + 256,
      limit_size: 16 * 1024,
      old: { used_size: ramBefore },
    });
    expect(changes.sections.modified).toContainEqual(
      expect.objectContaining({ name: '.bss', region: 'RAM', size: expect.any(Number) }),
    );
    expect(changes.symbols.added.map((s) => s.name)).toEqual(['v2_feature']);
    expect(changes.symbols.removed).toEqual([]);
    expect(toChangesSummary(diff).RAM).toEqual({ used_change: 256, free_change: -256 });
  });
});
