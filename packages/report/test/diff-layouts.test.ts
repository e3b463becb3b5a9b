/**
 * Two commits of a firmware linked as armlink and ILINK would, compared with the diff engine:
 * output sections named after execution regions (twice in one region, and again as a load image
 * in the load region) and after ILINK placement directives (`P2 rw`) come out as separate rows,
 * with changes that match objdump's sizes, and symbols stay where they are.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffReports, generateReport, type GeneratedReport } from '@memtrail/report';
import {
  buildLayoutFirmware,
  objdumpSections,
  type Firmware,
  type TruthSection,
} from './layout-firmware.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

describe('diffs of firmware with armlink and ILINK section names', () => {
  let base: Firmware;
  let larger: Firmware;
  beforeAll(() => {
    base = buildLayoutFirmware();
    larger = buildLayoutFirmware(['LARGER_BUILD']);
  });
  afterAll(() => {
    base.cleanup();
    larger.cleanup();
  });

  function build(
    firmware: Firmware,
    dir: string,
    layout: string,
    script: string,
  ): { report: GeneratedReport; truth: TruthSection[] } {
    const elf = firmware.link(join(fixtures, dir, script), layout);
    return {
      report: generateReport({ elf, linkerScripts: [layout], cwd: join(fixtures, dir) }),
      truth: objdumpSections(elf),
    };
  }

  it('Arm scatter file: execution-region sections, their ZI part and their load image', () => {
    const args = ['scatter', '01-uvision-stm32f4.sct', 'elf/01-uvision-stm32f4.ld'] as const;
    const old = build(base, ...args);
    const now = build(larger, ...args);
    const diff = diffReports(old.report, now.report);

    const size = (truth: TruthSection[], name: string, load: boolean) =>
      truth.find((s) => s.name === name && s.load === load)!.size;
    const row = (region: string, name: string, loadCopy: boolean, index = 0) =>
      diff.sections.filter(
        (s) => s.region === region && s.name === name && s.load_copy === loadCopy,
      )[index]!;

    // RW_IRAM1's RW part (with contents) and ZI part are two rows of region RW_IRAM1, in address
    // order; its load image is a row of LR_IROM1.
    const rw = size(now.truth, 'RW_IRAM1', true) - size(old.truth, 'RW_IRAM1', true);
    const zi = size(now.truth, 'RW_IRAM1', false) - size(old.truth, 'RW_IRAM1', false);
    expect(rw).toBeGreaterThan(0);
    expect(zi).toBeGreaterThan(0);
    expect(row('RW_IRAM1', 'RW_IRAM1', false, 0).delta).toBe(rw);
    expect(row('RW_IRAM1', 'RW_IRAM1', false, 1).delta).toBe(zi);
    expect(row('LR_IROM1', 'RW_IRAM1', true).delta).toBe(rw);
    const code = size(now.truth, 'ER_IROM1', true) - size(old.truth, 'ER_IROM1', true);
    expect(row('ER_IROM1', 'ER_IROM1', false).delta).toBe(code);

    const regions = Object.fromEntries(diff.regions.map((r) => [r.name, r.used_change]));
    expect(regions).toEqual({
      LR_IROM1: code + rw,
      ER_IROM1: code,
      RW_IRAM1: rw + zi,
      RW_IRAM2: 0,
    });

    const symbols = Object.fromEntries(diff.symbols.map((s) => [s.name, s]));
    expect(symbols.calibration).toMatchObject({
      status: 'added',
      new: { section: 'RW_IRAM1', region: 'RW_IRAM1', size: 128 },
    });
    expect(symbols.log_buffer).toMatchObject({
      status: 'added',
      new: { section: 'RW_IRAM1', region: 'RW_IRAM1', size: 256 },
    });
    expect(symbols.checksum).toMatchObject({
      status: 'added',
      new: { section: 'ER_IROM1', region: 'ER_IROM1' },
    });
    expect(diff.totals.symbols_moved).toBe(0);
  });

  it('IAR ICF file: ILINK placement names with a kind', () => {
    const args = ['icf', '01-stm32-icf-editor.icf', 'elf/01-stm32-icf-editor.ld'] as const;
    const old = build(base, ...args);
    const now = build(larger, ...args);
    const diff = diffReports(old.report, now.report);
    const change = (name: string) =>
      now.truth.find((s) => s.name === name)!.size - old.truth.find((s) => s.name === name)!.size;

    expect(
      diff.sections.filter((s) => s.delta !== 0).map((s) => [s.region, s.name, s.delta]),
    ).toEqual([
      ['ROM_region', 'P1 ro', change('P1 ro')],
      ['RAM_region', 'P2 rw', change('P2 rw')],
    ]);
    const symbols = Object.fromEntries(diff.symbols.map((s) => [s.name, s]));
    expect(symbols.calibration).toMatchObject({
      status: 'added',
      new: { section: 'P2 rw', region: 'RAM_region', size: 128 },
    });
    expect(symbols.checksum).toMatchObject({
      status: 'added',
      new: { section: 'P1 ro', region: 'ROM_region' },
    });
    expect(diff.totals.symbols_moved).toBe(0);
  });
});
