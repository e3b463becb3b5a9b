import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  LinkerScriptError,
  listMemoryRegions,
  loadLinkerScripts,
  type LinkerInput,
} from '@memtrail/report';
import { linkWithLd } from './linker-ld.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'linker');
const cases = JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8')) as {
  name: string;
  args: string[];
}[];

/** Turns an ld command line into our inputs, keeping the order of -T and --defsym. */
function fromLdArgs(args: string[]): { inputs: LinkerInput[]; searchPaths: string[] } {
  const inputs: LinkerInput[] = [];
  const searchPaths: string[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const value = args[i + 1]!;
    if (args[i] === '-T') inputs.push({ script: value });
    else if (args[i] === '--defsym') inputs.push({ defsym: value });
    else if (args[i] === '-L') searchPaths.push(value);
    else throw new Error(`unexpected ld argument ${args[i]}`);
  }
  return { inputs, searchPaths };
}

describe('linker scripts against arm-none-eabi-ld', () => {
  it.each(cases)('$name', ({ args }) => {
    const truth = linkWithLd(args, fixtures);
    expect(truth.stderr).not.toMatch(/error/i);
    expect(truth.ok).toBe(true);
    const model = loadLinkerScripts({ ...fromLdArgs(args), cwd: fixtures });
    // Regions ld creates for names no MEMORY declares (with a warning) are left out.
    const undeclared = [...truth.stderr.matchAll(/memory region `(\S+)' not declared/g)].map(
      (match) => match[1],
    );
    expect(model.undeclaredRegions).toEqual(undeclared);
    expect(
      model.regions.map((r) => ({
        name: r.name,
        origin: r.origin,
        length: r.length,
        attributes: r.mapAttributes,
      })),
    ).toEqual(truth.regions.filter((r) => !undeclared.includes(r.name)));
    // Every symbol we could evaluate and ld kept in the ELF must have ld's value.
    const compared = model.symbols.filter(
      (s) => s.value !== undefined && truth.symbols.has(s.name),
    );
    for (const symbol of compared)
      expect({ name: symbol.name, value: symbol.value }).toEqual({
        name: symbol.name,
        value: truth.symbols.get(symbol.name),
      });
  });

  it('covers at least 40 scripts', () => {
    expect(
      new Set(cases.flatMap((c) => c.args.filter((a) => a.startsWith('cases/')))).size,
    ).toBeGreaterThanOrEqual(40);
  });
});

describe('linker script model', () => {
  it('derives region kinds from attributes, with names only as a fallback', () => {
    const kinds = (script: string) =>
      Object.fromEntries(
        loadLinkerScripts({ inputs: [{ script }], cwd: fixtures }).regions.map((r) => [
          r.name,
          r.kind,
        ]),
      );
    expect(kinds('cases/01-stm32-cubemx.ld')).toEqual({
      CCMRAM: 'ram',
      RAM: 'ram',
      FLASH: 'flash',
    });
    expect(kinds('cases/27-esp-idf-memory.ld')).toMatchObject({
      iram0_0_seg: 'flash',
      iram0_2_seg: 'flash',
      dram0_0_seg: 'ram',
      drom0_0_seg: 'rom',
    });
    expect(kinds('cases/11-attributes.ld')).toMatchObject({
      AT2: 'rom',
      AT4: 'ram',
      AT6: 'rom',
      ATB: 'unknown',
      ATC: 'ram',
    });
    expect(kinds('cases/21-redeclare.ld')).toMatchObject({ R3: 'ram' });
  });

  it('reports placements with aliases resolved, and symbols that need the ELF as unknown', () => {
    const model = loadLinkerScripts({
      inputs: [{ script: 'cases/15-region-alias.ld' }],
      cwd: fixtures,
    });
    expect(model.placements.map((p) => [p.name, p.region, p.loadRegion, p.type])).toEqual([
      ['.text', 'FLASH', undefined, undefined],
      ['.data', 'RAM', 'FLASH', undefined],
      ['.bss', 'RAM', undefined, 'NOLOAD'],
    ]);
    const cube = loadLinkerScripts({
      inputs: [{ script: 'cases/01-stm32-cubemx.ld' }],
      cwd: fixtures,
    });
    const sidata = cube.symbols.find((s) => s.name === '_sidata')!;
    expect(sidata.value).toBeUndefined();
    expect(sidata.unknownReason).toMatch(/LOADADDR\(\.data\) needs the linked ELF/);
    expect(cube.entry).toBe('Reset_Handler');
    expect(cube.placements.find((p) => p.name === '.data')).toMatchObject({
      region: 'RAM',
      loadRegion: 'FLASH',
    });
  });

  it('lists regions for the CLI in script order with attributes as written', () => {
    expect(
      listMemoryRegions({
        scripts: ['cases/19-defsym.ld'],
        defsyms: ['boot_size=0x4000', 'ram_kb=32'],
        cwd: fixtures,
      }),
    ).toEqual([
      { name: 'BOOT', origin: 0, length: 0x4000, attributes: 'rx' },
      { name: 'APP', origin: 0x4000, length: 0x1000, attributes: 'rx' },
      { name: 'RAM', origin: 0x20000000, length: 32 * 1024, attributes: 'rw' },
    ]);
  });

  it('finds INCLUDEs next to the including script when neither the cwd nor -L has them (ld does not)', () => {
    expect(linkWithLd(['-T', 'beside/main.ld'], fixtures).ok).toBe(false);
    const model = loadLinkerScripts({ inputs: [{ script: 'beside/main.ld' }], cwd: fixtures });
    expect(model.files).toEqual(['beside/main.ld', join(fixtures, 'beside', 'sibling.ld')]);
    expect(model.regions.map((r) => [r.name, r.origin])).toEqual([['SIBLING', 0x4000]]);
  });

  it('says which declaration of a redeclared region won', () => {
    const model = loadLinkerScripts({
      inputs: [{ script: 'cases/21-redeclare.ld' }],
      cwd: fixtures,
    });
    expect(model.warnings.map((w) => `${w.position?.line}: ${w.message}`)).toEqual([
      "2: memory region 'R1' is declared 2 times (cases/21-redeclare.ld:1:10, cases/21-redeclare.ld:2:10): as in ld, the last declaration wins (ORIGIN = 0x300, LENGTH = 0xc) and the attributes of all of them apply",
    ]);
  });

  it('reads an unpreprocessed script as ld does, and says loudly that it needs the C preprocessor', () => {
    const model = loadLinkerScripts({
      inputs: [{ script: 'cases/37-unpreprocessed.ld' }],
      cwd: fixtures,
    });
    expect(model.preprocessorLines.map((l) => [l.directive, l.position.line])).toEqual([
      ['include', 4],
      ['define', 5],
      ['if', 6],
      ['else', 12],
      ['endif', 19],
      ['ifdef', 20],
      ['endif', 22],
    ]);
    const [loud, ...rest] = model.warnings.map((w) => w.message);
    expect(loud).toMatch(
      /^THIS LINKER SCRIPT LOOKS LIKE IT NEEDS THE C PREPROCESSOR \(#include at line 4, #define at line 5, #if at line 6, …\)\..*FLASH, RAM are declared more than once and the last declaration wins/,
    );
    expect(rest).toEqual([
      expect.stringMatching(
        /^memory region 'FLASH' is declared 2 times .* \(ORIGIN = 0x8000000, LENGTH = 0x80000\)/,
      ),
      expect.stringMatching(
        /^memory region 'RAM' is declared 2 times .* \(ORIGIN = 0x20000000, LENGTH = 0x20000\)/,
      ),
    ]);
  });

  it('follows ld for regions it never declares: warns, evaluates them as ORIGIN 0, LENGTH ~0, leaves them out', () => {
    const model = loadLinkerScripts({
      inputs: [{ script: 'cases/42-undeclared-region.ld' }],
      cwd: fixtures,
    });
    expect(model.regions.map((r) => r.name)).toEqual(['rom', 'ram_local2']);
    expect(model.undeclaredRegions).toEqual(['ram_local1']);
    expect(model.symbols.find((s) => s.name === '_stack')?.value).toBe(0xffffffff);
    expect(model.warnings.map((w) => w.message)).toEqual([
      expect.stringMatching(/^memory region 'ram_local1' is not declared in any MEMORY block/),
    ]);
    const output = loadLinkerScripts({
      inputs: [{ script: 'cases/44-undeclared-output-region.ld' }],
      cwd: fixtures,
    });
    expect(output.placements.map((p) => [p.name, p.region])).toEqual([
      ['.text', 'NOWHERE'],
      ['.rodata', 'FLASH'],
    ]);
  });
});

describe('linker script errors name the file, line and column', () => {
  const errorCases: {
    script: string;
    code: string;
    where: string;
    message: RegExp;
    ldComplains: boolean;
  }[] = [
    {
      script: 'errors/undefined-symbol.ld',
      code: 'undefined-symbol',
      where: 'errors/undefined-symbol.ld:3:39',
      message: /flash_size/,
      ldComplains: true,
    },
    {
      script: 'errors/syntax.ld',
      code: 'syntax',
      where: 'errors/syntax.ld:4:14',
      message: /expected ':'/,
      ldComplains: true,
    },
    {
      script: 'errors/cycle-a.ld',
      code: 'include-cycle',
      where: 'errors/cycle-b.ld:1:9',
      message: /INCLUDE cycle/,
      ldComplains: true,
    },
    {
      script: 'errors/needs-cpp.ld',
      code: 'undefined-symbol',
      where: 'errors/needs-cpp.ld:3:32',
      message: /FLASH_BASE.*needs the C preprocessor: #include at errors\/needs-cpp\.ld:2:1/,
      ldComplains: true,
    },
    {
      script: 'errors/divide-by-zero.ld',
      code: 'divide-by-zero',
      where: 'errors/divide-by-zero.ld:2:7',
      message: /\/ by zero/,
      ldComplains: true,
    },
    {
      script: 'errors/huge-number.ld',
      code: 'number-too-large',
      where: 'errors/huge-number.ld:1:23',
      message: /does not fit in 64 bits/,
      ldComplains: false,
    },
    {
      script: 'errors/needs-elf.ld',
      code: 'needs-elf',
      where: 'errors/needs-elf.ld:1:23',
      message: /ADDR\(\.text\) needs the linked ELF/,
      ldComplains: true,
    },
    {
      script: 'errors/xor.ld',
      code: 'syntax',
      where: 'errors/xor.ld:1:7',
      message: /no '\^'/,
      ldComplains: true,
    },
    {
      script: 'errors/include-missing.ld',
      code: 'include-not-found',
      where: 'errors/include-missing.ld:1:9',
      message: /missing-file\.ld/,
      ldComplains: true,
    },
    {
      script: 'errors/bad-attribute.ld',
      code: 'invalid-attributes',
      where: 'errors/bad-attribute.ld:1:10',
      message: /invalid character 'q'/,
      ldComplains: true,
    },
    {
      script: 'errors/undefined-region.ld',
      code: 'undefined-region',
      where: 'errors/undefined-region.ld:2:1',
      message: /memory region 'SRAM' for alias 'DATA_RAM' does not exist/,
      ldComplains: true,
    },
    {
      script: 'errors/provide-through-assignment.ld',
      code: 'undefined-symbol',
      where: 'errors/provide-through-assignment.ld:3:16',
      message: /only PROVIDEd/,
      ldComplains: true,
    },
    {
      script: 'errors/unterminated.ld',
      code: 'syntax',
      where: 'errors/unterminated.ld:2:1',
      message: /missing '}'/,
      ldComplains: true,
    },
  ];

  it.each(errorCases)('$script → $code', ({ script, code, where, message, ldComplains }) => {
    let caught: unknown;
    try {
      loadLinkerScripts({ inputs: [{ script }], cwd: fixtures });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LinkerScriptError);
    const error = caught as LinkerScriptError;
    expect({ code: error.code, message: error.message }).toEqual({
      code,
      message: expect.stringContaining(where),
    });
    expect(error.message).toMatch(message);
    // ld either fails or warns about the same line (it keeps going with 0 for an invalid ORIGIN);
    // it silently saturates over-wide numbers, where we refuse.
    const ld = linkWithLd(['-T', script], fixtures);
    expect(!ld.ok || ld.stderr.trim() !== '').toBe(ldComplains);
  });

  it('rejects a missing script and a malformed --defsym', () => {
    expect(() => loadLinkerScripts({ inputs: [{ script: 'nope.ld' }], cwd: fixtures })).toThrow(
      /linker script not found: nope\.ld/,
    );
    expect(() => loadLinkerScripts({ inputs: [{ defsym: 'x' }], cwd: fixtures })).toThrow(
      /--defsym:1:2: syntax error: expected '='/,
    );
  });
});
