import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateReport, type GeneratedReport } from '@memtrail/report';
import { sizeAndLoadAddresses } from './layout-elf.js';
import { parseMemoryUsage } from './linker-ld.js';

/**
 * Region usage against GNU ld itself: the firmware under fixtures/ld-usage is linked in the test
 * run with layouts written in the styles of several vendors' SDKs, and each region's figure is
 * compared with what `ld --print-memory-usage` printed for that very link.
 */
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'ld-usage');
const DEFSYMS = ['__main_stack_size__=0x400', '__process_stack_size__=0x800'];

interface Linked {
  report: GeneratedReport;
  warnings: string[];
  ld: ReturnType<typeof parseMemoryUsage>;
  ldStderr: string;
  sections: ReturnType<typeof sizeAndLoadAddresses>;
}

function link(script: string, skipSections: string[] = []): Linked {
  const elf = join(mkdtempSync(join(tmpdir(), 'memtrail-usage-')), 'fw.elf');
  const run = spawnSync(
    'arm-none-eabi-gcc',
    [
      '-mcpu=cortex-m4',
      '-mthumb',
      '-Os',
      '-nostdlib',
      '-nostartfiles',
      '-T',
      script,
      'fw.c',
      'sections.s',
      '-o',
      elf,
      '-Wl,--print-memory-usage',
      ...DEFSYMS.map((defsym) => `-Wl,--defsym=${defsym}`),
    ],
    { cwd: fixtures, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`link with ${script} failed: ${run.stderr}`);
  const warnings: string[] = [];
  const report = generateReport({
    elf,
    linkerScripts: [script],
    defs: DEFSYMS,
    cwd: fixtures,
    skipSections,
    onWarning: (message) => warnings.push(message),
  });
  return {
    report,
    warnings,
    ld: parseMemoryUsage(run.stdout),
    ldStderr: run.stderr,
    sections: sizeAndLoadAddresses(elf),
  };
}

/** What every layout must satisfy: ld's figure for every region, each section listed once. */
function expectAgreementWithLd({ report, ld, sections }: Linked, undeclared: string[] = []) {
  const layout = report.memory_layout;
  const printed = [...ld.keys()].filter((name) => name !== '*default*');
  expect(Object.keys(layout).sort()).toEqual(
    printed.filter((name) => !undeclared.includes(name)).sort(),
  );
  for (const [name, region] of Object.entries(layout)) {
    const truth = ld.get(name)!;
    expect([name, region.limit_size]).toEqual([name, truth.length]);
    if (region.used_size_basis === 'container') {
      expect([name, truth.used]).toEqual([name, 0]);
      const children = region.children!.map((child) => layout[child]!.used_size);
      expect(region.used_size).toBe(children.reduce((sum, used) => sum + used, 0));
    } else if (region.used_size_basis === 'linker') {
      expect([name, region.used_size]).toEqual([name, truth.used]);
    } else {
      expect([name, region.used_size_basis, region.linker_used_size]).toEqual([
        name,
        expect.stringMatching(/^(linker_extended|occupied)$/),
        truth.used,
      ]);
    }
    // A region ld charges nothing holds nothing, unless it is a container.
    if (truth.used === 0 && !region.container)
      expect([name, region.sections.filter((s) => s.size > 0)]).toEqual([name, []]);
  }
  // Never counted twice: each allocated section once at its run address, its image at most once.
  const listed = Object.values(layout).flatMap((region) => region.sections);
  for (const section of sections.filter((s) => s.size > 0)) {
    const at = (address: number) =>
      listed.filter((s) => s.name === section.name && s.address === address).length;
    expect([section.name, at(section.vma)]).toEqual([section.name, 1]);
    if (section.lma !== section.vma)
      expect([section.name, at(section.lma)]).toEqual([section.name, section.load ? 1 : 0]);
  }
}

const size = (linked: Linked, name: string) => linked.sections.find((s) => s.name === name)!.size;

describe('region usage agrees with ld --print-memory-usage', () => {
  it('ChibiOS: aliased placements, overlapping RAM views that stay empty, LENGTH 0 placeholders', () => {
    const linked = link('chibios-board.ld');
    expectAgreementWithLd(linked);
    const layout = linked.report.memory_layout;
    expect(layout.ram0).toMatchObject({ used_size_basis: 'linker', utilization_percent: 100 });
    for (const name of ['ram1', 'ram2']) {
      expect(layout[name]).toMatchObject({ used_size: 0, used_size_basis: 'linker' });
      expect(layout[name]!.parent).toBeUndefined();
    }
    expect(layout.ram0!.children).toBeUndefined();
    expect(Object.keys(layout).filter((name) => layout[name]!.placeholder)).toEqual([
      'flash1',
      'flash2',
      'ram3',
    ]);
    expect(layout.ram4!.sections.map((s) => s.name)).toEqual(['.ram4']);
    // Orphans follow the statement ld puts them after: .orphan_rw after .data, so in ram0 and
    // loaded in flash0 like it.
    expect(layout.flash0!.sections.map((s) => s.name)).toContain('.orphan_rw');
    expect(layout.ram0!.sections.map((s) => s.name)).toEqual(
      expect.arrayContaining(['.orphan_rw', '.orphan_bss', '.heap']),
    );
  });

  it('ChibiOS with --skip-section .heap: ram0 gives the bytes its other sections occupy', () => {
    const linked = link('chibios-board.ld', ['.heap']);
    const ram0 = linked.report.memory_layout.ram0!;
    expect(ram0.used_size_basis).toBe('occupied');
    expect(ram0.linker_used_size).toBe(linked.ld.get('ram0')!.used);
    // ram0's sections do not overlap, so the bytes they occupy are the sum of their sizes.
    expect(ram0.used_size).toBe(ram0.sections.reduce((sum, s) => sum + s.size, 0));
    expect(ram0.sections.map((s) => s.name)).not.toContain('.heap');
  });

  it('MicroPython: FLASH holds nothing itself and is the container of the regions inside it', () => {
    const linked = link('micropython-style.ld');
    expectAgreementWithLd(linked);
    const layout = linked.report.memory_layout;
    expect(layout.FLASH).toMatchObject({
      container: true,
      used_size_basis: 'container',
      children: ['FLASH_ISR', 'FLASH_FS', 'FLASH_TEXT'],
      sections: [],
    });
    expect(layout.FLASH!.used_size).toBe(
      linked.ld.get('FLASH_ISR')!.used + linked.ld.get('FLASH_TEXT')!.used,
    );
    for (const child of ['FLASH_ISR', 'FLASH_FS', 'FLASH_TEXT'])
      expect(layout[child]!.parent).toBe('FLASH');
    expect(layout.RAM!.parent).toBeUndefined();
  });

  it('Klipper: the stack pinned at the top of RAM, and the .data image placed with AT(expr)', () => {
    const linked = link('klipper-style.ld');
    expectAgreementWithLd(linked);
    const { ram, rom } = linked.report.memory_layout;
    expect(linked.ld.get('ram')!.used).toBe(20 * 1024);
    expect(ram).toMatchObject({
      used_size_basis: 'occupied',
      used_size: size(linked, '.data') + size(linked, '.bss') + size(linked, '.stack'),
    });
    // ld charges rom for .text only; the .data image right after it occupies rom as well.
    expect(rom).toMatchObject({
      used_size_basis: 'linker_extended',
      used_size: linked.ld.get('rom')!.used + size(linked, '.data'),
    });
  });

  it('NXP MCUXpresso: AT(__DATA_ROM), heap and stack sections after .bss', () => {
    const linked = link('mcux-style.ld');
    expectAgreementWithLd(linked);
    const { m_text, m_data_2 } = linked.report.memory_layout;
    expect(m_text).toMatchObject({ used_size_basis: 'linker_extended' });
    expect(m_text!.sections.map((s) => s.name)).toContain('.data');
    expect(m_data_2!.sections.map((s) => s.name)).toEqual(
      expect.arrayContaining(['.bss', '.heap', '.stack']),
    );
  });

  it('Nordic nRF5: INCLUDEd common script, AT(__etext), COPY sections that are not allocated', () => {
    const linked = link('nordic-style.ld');
    expectAgreementWithLd(linked);
    const names = Object.values(linked.report.memory_layout).flatMap((r) =>
      r.sections.map((s) => s.name),
    );
    expect(names).not.toContain('.heap');
    expect(names).not.toContain('.stack_dummy');
  });

  it('Renesas FSP: memories the board lacks are placeholders, code in RAM loads from FLASH', () => {
    const linked = link('fsp-style.ld');
    expectAgreementWithLd(linked);
    const layout = linked.report.memory_layout;
    expect(Object.keys(layout).filter((name) => layout[name]!.placeholder)).toEqual([
      'QSPI_FLASH',
      'OSPI_DEVICE_0',
      'SDRAM',
    ]);
    expect(layout.FLASH!.sections.map((s) => s.name)).toContain('.code_in_ram');
  });

  it('STM32CubeIDE H7: a section after .data in the same region loads where .data loads', () => {
    const linked = link('stm32cube-h7-style.ld');
    expectAgreementWithLd(linked);
    const { FLASH } = linked.report.memory_layout;
    expect(FLASH!.used_size_basis).toBe('linker');
    expect(FLASH!.sections.map((s) => s.name)).toContain('.RamFunc');
  });

  it('TI MSP432: sections naming no region go to the first region whose attributes accept them', () => {
    const linked = link('msp432-style.ld');
    expectAgreementWithLd(linked);
    const { SRAM_CODE, SRAM_DATA } = linked.report.memory_layout;
    expect(SRAM_CODE!.sections.map((s) => s.name)).toEqual(['.bss', '.dma']);
    // The stack has an address but no region: ld charges it nowhere; it lies at the top of
    // SRAM_DATA, so the region gives the bytes occupied.
    expect(SRAM_DATA).toMatchObject({
      used_size_basis: 'occupied',
      used_size: size(linked, '.data') + size(linked, '.stack'),
    });
  });

  it('libopencm3 LPC43xx: a region only the INCLUDEd script uses is left out, with a warning', () => {
    const linked = link('lpc43xx-board.ld');
    expect(linked.ldStderr).toMatch(/memory region `ram_local1' not declared/);
    expectAgreementWithLd(linked, ['ram_local1']);
    expect(linked.report.memory_layout.ram_local1).toBeUndefined();
    expect(linked.warnings).toEqual([
      expect.stringMatching(
        /lpc43xx-common\.ld:\d+:\d+: memory region 'ram_local1' is not declared in any MEMORY block/,
      ),
    ]);
  });
});
