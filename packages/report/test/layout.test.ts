import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildMemoryLayout,
  LayoutError,
  loadLinkerScripts,
  sectionAssignments,
  type LayoutSection,
  type LinkerRegion,
} from '@memtrail/report';
import { readElfLayout, sizeAndLoadAddresses } from './layout-elf.js';
import { parseMemoryConfiguration, parseMemoryUsage } from './linker-ld.js';

const firmwareDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'linker', 'firmware');

describe('region mapping on a real Cortex-M ELF', () => {
  let elf: string;
  let regions: LinkerRegion[];
  let assignments: ReturnType<typeof sectionAssignments>;
  let mapRegions: ReturnType<typeof parseMemoryConfiguration>;
  let ldUsage: ReturnType<typeof parseMemoryUsage>;

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-layout-'));
    elf = join(dir, 'fw.elf');
    const map = join(dir, 'fw.map');
    const stdout = execFileSync(
      'arm-none-eabi-gcc',
      [
        '-mcpu=cortex-m4',
        '-mthumb',
        '-nostdlib',
        '-Os',
        '-T',
        join(firmwareDir, 'layout.ld'),
        join(firmwareDir, 'main.c'),
        '-o',
        elf,
        `-Wl,-Map=${map}`,
        '-Wl,--print-memory-usage',
      ],
      { encoding: 'utf8' },
    );
    const model = loadLinkerScripts({ inputs: [{ script: join(firmwareDir, 'layout.ld') }] });
    regions = model.regions;
    assignments = sectionAssignments(model, readElfLayout(elf).sections);
    mapRegions = parseMemoryConfiguration(readFileSync(map, 'utf8'));
    ldUsage = parseMemoryUsage(stdout);
  });

  it('uses the regions ld used and charges each one what ld --print-memory-usage says', () => {
    expect(regions.map((r) => [r.name, r.origin, r.length])).toEqual(
      mapRegions.map((r) => [r.name, r.origin, r.length]),
    );
    const { memoryLayout, warnings } = buildMemoryLayout({
      ...readElfLayout(elf),
      regions,
      assignments,
    });
    for (const name of ['FLASH_BOOT', 'FLASH_APP', 'RAM']) {
      expect([name, memoryLayout[name]!.used_size_basis, memoryLayout[name]!.used_size]).toEqual([
        name,
        'linker',
        ldUsage.get(name)!.used,
      ]);
    }
    // ld charges nothing to FLASH, which holds only the regions inside it: a container.
    expect(ldUsage.get('FLASH')!.used).toBe(0);
    expect(memoryLayout.FLASH).toMatchObject({
      used_size: ldUsage.get('FLASH_BOOT')!.used + ldUsage.get('FLASH_APP')!.used,
      used_size_basis: 'container',
      container: true,
      children: ['FLASH_BOOT', 'FLASH_APP'],
      type: 'FLASH',
      sections: [],
    });
    expect(memoryLayout.FLASH_APP).toMatchObject({ parent: 'FLASH', type: 'FLASH' });
    expect(memoryLayout.RAM!.type).toBe('RAM');
    expect(memoryLayout.RAM!.parent).toBeUndefined();

    // .data twice: at its RAM address and at its load address in FLASH_APP.
    const truth = sizeAndLoadAddresses(elf);
    const data = truth.find((s) => s.name === '.data')!;
    expect(memoryLayout.RAM!.sections.find((s) => s.name === '.data')).toEqual({
      name: '.data',
      address: data.vma,
      size: data.size,
      type: 'data',
      end_address: data.vma + data.size,
    });
    expect(memoryLayout.FLASH_APP!.sections.find((s) => s.name === '.data')?.address).toBe(
      data.lma,
    );

    // The section the script gives an address but no region lies outside every region: it gets a
    // region inferred from its PT_LOAD segment.
    const orphan = truth.find((s) => s.name === '.orphan')!;
    expect(memoryLayout['RAM (inferred)']).toMatchObject({
      address: orphan.vma,
      limit_size: orphan.size,
      used_size: orphan.size,
      type: 'RAM',
      utilization_percent: 100,
    });
    expect(warnings).toEqual([]);

    const ram = memoryLayout.RAM!;
    expect(ram.free_size).toBe(ram.limit_size - ram.used_size);
    expect(ram.utilization_percent).toBe((ram.used_size / ram.limit_size) * 100);
  });

  it('without placements, charges each region the sections whose address lies in it', () => {
    const { memoryLayout } = buildMemoryLayout({ ...readElfLayout(elf), regions });
    const truth = sizeAndLoadAddresses(elf);
    const smallest = (address: number) =>
      mapRegions
        .filter((r) => address >= r.origin && address < r.origin + r.length)
        .sort((a, b) => a.length - b.length)[0]?.name;
    const own = new Map<string, number>();
    const add = (name: string | undefined, size: number) =>
      name && own.set(name, (own.get(name) ?? 0) + size);
    for (const section of truth) {
      add(smallest(section.vma), section.size);
      if (section.load && section.lma !== section.vma) add(smallest(section.lma), section.size);
    }
    for (const name of ['FLASH_BOOT', 'FLASH_APP', 'RAM'])
      expect([name, memoryLayout[name]!.used_size, memoryLayout[name]!.used_size_basis]).toEqual([
        name,
        own.get(name),
        'address',
      ]);
    expect(memoryLayout.FLASH).toMatchObject({ container: true, used_size_basis: 'container' });
  });

  it('--skip-section removes a section before mapping and warns about unknown names', () => {
    const { memoryLayout, warnings } = buildMemoryLayout({
      ...readElfLayout(elf),
      regions,
      skipSections: ['.heap', '.nothing'],
    });
    const heap = sizeAndLoadAddresses(elf).find((s) => s.name === '.heap')!;
    const full = buildMemoryLayout({ ...readElfLayout(elf), regions }).memoryLayout;
    expect(memoryLayout.RAM!.used_size).toBe(full.RAM!.used_size - heap.size);
    expect(memoryLayout.RAM!.sections.map((s) => s.name)).not.toContain('.heap');
    expect(warnings).toEqual(['--skip-section .nothing: no allocated section has this name']);
  });

  it('--limits replaces LENGTH (free may go negative) and refuses a moved ORIGIN', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-limits-'));
    writeFileSync(
      join(dir, 'limits.ld'),
      'MEMORY { FLASH_APP (rx) : ORIGIN = 0x08004000, LENGTH = 64 }\n',
    );
    writeFileSync(
      join(dir, 'moved.ld'),
      'MEMORY { RAM (rwx) : ORIGIN = 0x20001000, LENGTH = 64K }\n',
    );
    const limits = loadLinkerScripts({ inputs: [{ script: 'limits.ld' }], cwd: dir }).regions;
    const { memoryLayout } = buildMemoryLayout({ ...readElfLayout(elf), regions, limits });
    const app = memoryLayout.FLASH_APP!;
    expect(app.limit_size).toBe(64);
    expect(app.free_size).toBe(64 - app.used_size);
    expect(app.free_size).toBeLessThan(0);
    expect(app.utilization_percent).toBeGreaterThan(100);
    const moved = loadLinkerScripts({ inputs: [{ script: 'moved.ld' }], cwd: dir }).regions;
    expect(() => buildMemoryLayout({ ...readElfLayout(elf), regions, limits: moved })).toThrow(
      LayoutError,
    );
  });

  it('falls back to default Code/Data regions without a script, and says so', () => {
    const { memoryLayout, warnings } = buildMemoryLayout(readElfLayout(elf));
    expect(Object.keys(memoryLayout)).toEqual(['Code', 'Data']);
    const truth = sizeAndLoadAddresses(elf);
    const code = truth.filter((s) => ['.text', '.rodata'].includes(s.name));
    expect(memoryLayout.Code).toMatchObject({
      type: 'rx',
      limit_size: 0,
      utilization_percent: 0,
      address: Math.min(...code.map((s) => s.vma)),
    });
    expect(memoryLayout.Code!.used_size).toBe(code.reduce((sum, s) => sum + s.size, 0));
    expect(memoryLayout.Data!.free_size).toBe(-memoryLayout.Data!.used_size);
    expect(warnings[0]).toMatch(/default Code\/Data regions/);
  });
});

describe('region mapping rules', () => {
  const section = (
    name: string,
    address: number,
    size: number,
    type = 'PROGBITS',
    write = true,
  ): LayoutSection => ({ name, type, address, size, flags: { alloc: true, write, exec: false } });

  it('keeps zero-size sections, counts NOBITS, ignores non-allocated sections', () => {
    const { memoryLayout } = buildMemoryLayout({
      sections: [
        section('.empty', 0x100, 0),
        section('.bss', 0x100, 16, 'NOBITS'),
        { ...section('.comment', 0, 10), flags: { alloc: false, write: false, exec: false } },
      ],
      segments: [],
      regions: [{ name: 'RAM', origin: 0x100, length: 0x100, kind: 'ram' }],
    });
    expect(memoryLayout.RAM!.sections.map((s) => [s.name, s.size])).toEqual([
      ['.empty', 0],
      ['.bss', 16],
    ]);
    expect(memoryLayout.RAM!.used_size).toBe(16);
  });

  it('charges assigned regions only: overlapping regions are no parents, LENGTH 0 is a placeholder', () => {
    const { memoryLayout } = buildMemoryLayout({
      sections: [
        { ...section('.data', 0x20000000, 0x10), alignment: 4 },
        { ...section('.bss', 0x20000010, 0x100, 'NOBITS'), alignment: 4 },
        { ...section('.bss2', 0x2001c000, 0x20, 'NOBITS'), alignment: 4 },
      ],
      segments: [
        {
          type: 'PT_LOAD',
          virtAddr: 0x20000000,
          physAddr: 0x08000400,
          fileSize: 0x10,
          memSize: 0x110,
          flags: 'RW',
        },
      ],
      regions: [
        { name: 'flash0', origin: 0x08000000, length: 0x100000, kind: 'flash' },
        { name: 'flash1', origin: 0, length: 0, kind: 'flash' },
        { name: 'ram0', origin: 0x20000000, length: 0x20000, kind: 'ram' },
        { name: 'ram1', origin: 0x20000000, length: 0x1c000, kind: 'ram' },
        { name: 'ram2', origin: 0x2001c000, length: 0x4000, kind: 'ram' },
      ],
      assignments: new Map([
        ['.data', { region: 'ram0', loadRegion: 'flash0' }],
        ['.bss', { region: 'ram0' }],
        ['.bss2', { region: 'ram0' }],
      ]),
    });
    expect(memoryLayout.ram0).toMatchObject({ used_size: 0x1c020, used_size_basis: 'linker' });
    for (const name of ['ram1', 'ram2'])
      expect(memoryLayout[name]).toMatchObject({ used_size: 0, sections: [] });
    expect(memoryLayout.ram1!.parent).toBeUndefined();
    expect(memoryLayout.ram0!.children).toBeUndefined();
    // The load image is charged from the load region's origin, as ld does.
    expect(memoryLayout.flash0).toMatchObject({ used_size: 0x410, used_size_basis: 'linker' });
    expect(memoryLayout.flash1).toMatchObject({ placeholder: true, used_size: 0 });
    expect(memoryLayout.ram0!.placeholder).toBeUndefined();
  });

  it('gives the occupied bytes for a section pinned at the end of its region', () => {
    const { memoryLayout } = buildMemoryLayout({
      sections: [
        section('.bss', 0x20000000, 0x100, 'NOBITS'),
        section('.stack', 0x2000fc00, 0x400, 'NOBITS'),
      ],
      segments: [],
      regions: [{ name: 'RAM', origin: 0x20000000, length: 0x10000, kind: 'ram' }],
      assignments: new Map([
        ['.bss', { region: 'RAM' }],
        ['.stack', { region: 'RAM' }],
      ]),
    });
    expect(memoryLayout.RAM).toMatchObject({
      used_size: 0x500,
      used_size_basis: 'occupied',
      linker_used_size: 0x10000,
    });
  });

  it('names several inferred regions of one kind by address', () => {
    const { memoryLayout } = buildMemoryLayout({
      sections: [
        section('.a', 0x1000, 4),
        section('.b', 0x2000, 4),
        section('.c', 0x3000, 4, 'PROGBITS', false),
      ],
      segments: [
        {
          type: 'PT_LOAD',
          virtAddr: 0x1000,
          physAddr: 0x1000,
          fileSize: 4,
          memSize: 4,
          flags: 'RW',
        },
        {
          type: 'PT_LOAD',
          virtAddr: 0x2000,
          physAddr: 0x2000,
          fileSize: 4,
          memSize: 8,
          flags: 'RW',
        },
        {
          type: 'PT_LOAD',
          virtAddr: 0x3000,
          physAddr: 0x3000,
          fileSize: 4,
          memSize: 4,
          flags: 'R',
        },
      ],
      regions: [{ name: 'ROM', origin: 0, length: 0x100, kind: 'rom' }],
    });
    expect(Object.keys(memoryLayout)).toEqual([
      'ROM',
      'RAM (inferred @0x00001000)',
      'RAM (inferred @0x00002000)',
      'Flash (inferred)',
    ]);
    expect(memoryLayout['RAM (inferred @0x00002000)']).toMatchObject({
      limit_size: 8,
      used_size: 4,
    });
  });
});
