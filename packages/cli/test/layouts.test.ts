/**
 * `memtrail regions` and `memtrail report` on every IAR ICF and Arm scatter test layout, compared
 * with the regions worked out by hand for each (the same tables the report engine is tested with).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import type { MemoryReport } from '@memtrail/contracts';
import { ICF_CASES } from '../../report/test/fixtures/icf/cases.js';
import { SCATTER_CASES } from '../../report/test/fixtures/scatter/cases.js';
import { buildLayoutFirmware, type Firmware } from '../../report/test/layout-firmware.js';
import { run } from './support.js';

const REPORT_FIXTURES = join(import.meta.dirname, '..', '..', 'report', 'test', 'fixtures');
const SCATTER = join(REPORT_FIXTURES, 'scatter');
const ICF = join(REPORT_FIXTURES, 'icf');

function options(defs: Record<string, string> = {}, searchPaths: string[] = []): string[] {
  return [
    ...Object.entries(defs).flatMap(([name, value]) => ['--def', `${name}=${value}`]),
    ...searchPaths.flatMap((dir) => ['-L', dir]),
  ];
}

describe('memtrail regions on the test layouts', () => {
  it.each(SCATTER_CASES)(
    'scatter: $name',
    async ({ file, defs, searchPaths, regions, warning }) => {
      const result = await run(['regions', file, ...options(defs, searchPaths)], SCATTER);
      expect(result.code).toBe(0);
      const printed = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
      expect(printed.map(({ unresolved: _, ...rest }) => rest)).toEqual(regions);
      if (warning) expect(result.stderr).toMatch(warning);
    },
  );

  it.each(ICF_CASES)('ICF: $name', async ({ files, defs, searchPaths, regions, warning }) => {
    const result = await run(['regions', ...files, ...options(defs, searchPaths)], ICF);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(regions);
    if (warning) expect(result.stderr).toMatch(warning);
  });

  it('says why a value is missing, and fails clearly on what the linker refuses', async () => {
    const heap = await run(['regions', '02-cmsis-ac6.sct'], SCATTER);
    const printed = JSON.parse(heap.stdout) as Array<{ name: string; unresolved?: string }>;
    expect(printed.find((r) => r.name === 'ARM_LIB_HEAP')!.unresolved).toBe(
      "the end of RW_RAM's content needs the linked image",
    );
    const refused = await run(['regions', '05-infineon-tvii-multicore.icf'], ICF);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'ERROR: cannot read the regions of 05-infineon-tvii-multicore.icf:',
    );
    expect(refused.stderr).toContain('error "Link location not defined or not supported!"');
    const mixed = await run(
      ['regions', join(ICF, '01-stm32-icf-editor.icf'), '01-uvision-stm32f4.sct'],
      SCATTER,
    );
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /is an IAR ICF file but .* is an Arm scatter file: one link uses one linker/,
    );
  });
});

describe('memtrail regions and report with the linked ELF', () => {
  let firmware: Firmware;
  beforeAll(() => {
    firmware = buildLayoutFirmware();
  });
  afterAll(() => firmware.cleanup());

  it('regions --elf resolves what depends on the image', async () => {
    const elf = firmware.link(join(SCATTER, 'elf/02-cmsis-ac6.ld'), 'cmsis');
    const result = await run(['regions', '02-cmsis-ac6.sct', '--elf', elf], SCATTER);
    expect(result.code).toBe(0);
    const heap = (JSON.parse(result.stdout) as Array<Record<string, unknown>>).find(
      (r) => r.name === 'ARM_LIB_HEAP',
    );
    // The RW data ends at 0x20000794 in this image; the heap starts 8-byte aligned after it.
    expect(heap).toMatchObject({ origin: 0x20000798, length: 0x800 });
    expect(heap!.unresolved).toBeUndefined();
  });

  it('report prints load regions around the execution regions that run in place', async () => {
    const elf = firmware.link(join(SCATTER, 'elf/01-uvision-stm32f4.ld'), 'uvision');
    const text = await run(['report', elf, '01-uvision-stm32f4.sct'], SCATTER);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    const load = lines.findIndex((l) => /^\s*LR_IROM1\b/.test(l));
    expect(load).toBeGreaterThanOrEqual(0);
    expect(lines[load + 1]).toMatch(/^\s+ER_IROM1\b/);
    expect(lines[load + 1]!.indexOf('ER_IROM1')).toBeGreaterThan(lines[load]!.indexOf('LR_IROM1'));

    const json = await run(['report', elf, '01-uvision-stm32f4.sct', '--json'], SCATTER);
    const report = JSON.parse(json.stdout) as MemoryReport;
    expect(report.memory_layout.ER_IROM1).toMatchObject({ parent: 'LR_IROM1', type: 'FLASH' });
    expect(report.memory_layout.LR_IROM1).toMatchObject({ children: ['ER_IROM1'], type: 'FLASH' });
    expect(report.memory_layout.RW_IRAM1!.type).toBe('RAM');
  });

  it('report reads an ICF file with --def as ILINK takes --config_def', async () => {
    const elf = firmware.link(join(ICF, 'elf/02-nxp-kinetis-union.ld'), 'kinetis');
    const json = await run(
      ['report', elf, '02-nxp-kinetis-union.icf', '--def', '__stack_size__=0x400', '--json'],
      ICF,
    );
    expect(json.code).toBe(0);
    const layout = (JSON.parse(json.stdout) as MemoryReport).memory_layout;
    expect(Object.keys(layout)).toEqual([
      'm_flash_config_region',
      'TEXT_region#1',
      'TEXT_region#2',
      'DATA_region',
      'DATA2_region',
      'CSTACK_region',
      'm_interrupts_ram_region',
    ]);
    expect(layout['TEXT_region#1']!.sections.map((s) => s.name)).toEqual(['A0', 'P2 ro']);
  });
});
