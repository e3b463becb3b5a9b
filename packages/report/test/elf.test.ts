import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ElfFile, detectToolchain, parseElf } from '../src/elf/index.js';
import { type Variant, binutils, buildFirmware } from './elf-firmware-build.js';
import { parseSectionTable, parseSegments, parseSymbols } from './elf-readelf.js';

const READELF_TYPES: Record<string, string> = {
  NOTYPE: 'NOTYPE',
  OBJECT: 'OBJECT',
  FUNC: 'FUNC',
  SECTION: 'SECTION',
  FILE: 'FILE',
  COMMON: 'COMMON',
  TLS: 'TLS',
  IFUNC: 'STT_LOOS',
};
const READELF_BINDINGS: Record<string, string> = {
  LOCAL: 'LOCAL',
  GLOBAL: 'GLOBAL',
  WEAK: 'WEAK',
  UNIQUE: 'STB_LOOS',
};

/** Compares everything the model holds with readelf's view of the same file. */
function expectMatchesReadelf(
  elf: ElfFile,
  readelf: (args: string[]) => string,
  elfPath: string,
): void {
  const header = readelf(['-h', elfPath]);
  expect(elf.is64).toBe(/Class:\s+ELF64/.test(header));
  expect(elf.littleEndian).toBe(/little endian/.test(header));
  expect(elf.entry).toBe(parseInt(/Entry point address:\s+0x([0-9a-f]+)/.exec(header)![1]!, 16));
  expect(elf.fileTypeName).toBe(`ET_${/Type:\s+(\w+)/.exec(header)![1]}`);

  const sections = parseSectionTable(readelf(['-S', '-W', elfPath]));
  expect(elf.sections.map((s) => s.name)).toEqual(sections.map((s) => s.name));
  for (const [i, expected] of sections.entries()) {
    const s = elf.sections[i]!;
    expect({
      name: s.name,
      address: s.address,
      offset: s.offset,
      size: s.size,
      entsize: s.entsize,
      link: s.link,
      info: s.info,
      align: s.addralign,
    }).toEqual({
      name: expected.name,
      address: expected.address,
      offset: expected.offset,
      size: expected.size,
      entsize: expected.entsize,
      link: expected.link,
      info: expected.info,
      align: expected.align,
    });
    expect({ alloc: s.flags.alloc, write: s.flags.write, exec: s.flags.exec }).toEqual({
      alloc: expected.flags.includes('A'),
      write: expected.flags.includes('W'),
      exec: expected.flags.includes('X'),
    });
    if (
      [
        'NULL',
        'PROGBITS',
        'NOBITS',
        'SYMTAB',
        'STRTAB',
        'DYNSYM',
        'NOTE',
        'RELA',
        'DYNAMIC',
        'INIT_ARRAY',
        'FINI_ARRAY',
      ].includes(expected.type)
    ) {
      expect(s.typeName).toBe(`SHT_${expected.type}`);
    }
  }

  const segments = parseSegments(readelf(['-l', '-W', elfPath]));
  expect(elf.segments.length).toBe(segments.length);
  for (const [i, expected] of segments.entries()) {
    const s = elf.segments[i]!;
    expect({
      offset: s.offset,
      virtAddr: s.virtAddr,
      physAddr: s.physAddr,
      fileSize: s.fileSize,
      memSize: s.memSize,
      flags: s.flagsString,
      align: s.align,
    }).toEqual({
      offset: expected.offset,
      virtAddr: expected.virtAddr,
      physAddr: expected.physAddr,
      fileSize: expected.fileSize,
      memSize: expected.memSize,
      flags: expected.flags || '---',
      align: expected.align,
    });
    if (expected.type === 'LOAD') expect(s.typeName).toBe('PT_LOAD');
  }

  const symbols = parseSymbols(readelf(['-s', '-W', elfPath]), elf.symbolTable!);
  expect(symbols.length).toBeGreaterThan(0);
  expect(elf.symbols.length).toBe(symbols.length);
  for (const [i, expected] of symbols.entries()) {
    const s = elf.symbols[i]!;
    const section = /^\d+$/.test(expected.ndx) ? elf.sections[Number(expected.ndx)]!.name : '';
    // readelf shows unnamed section symbols under their section's name.
    const name = expected.type === 'SECTION' && s.name === '' ? section : s.name;
    expect({
      name,
      value: s.value,
      size: s.size,
      binding: s.binding,
      visibility: s.visibility,
      section: s.section,
    }).toEqual({
      name: expected.name,
      value: expected.value,
      size: expected.size,
      binding: READELF_BINDINGS[expected.bind] ?? s.binding,
      visibility: expected.vis,
      section,
    });
    if (READELF_TYPES[expected.type]) expect(s.type).toBe(READELF_TYPES[expected.type]);
  }
}

describe('ELF parser against readelf', () => {
  const variants: Array<[Variant, string, string]> = [
    ['arm-c-dwarf5', 'EM_ARM', 'ARM'],
    ['arm-be', 'EM_ARM', 'ARM'],
    ['arm-cpp', 'EM_ARM', 'ARM'],
    ['riscv-c', 'EM_RISCV', 'RISC-V'],
  ];
  for (const [variant, machine, architecture] of variants) {
    it(`reads ${variant} firmware like readelf`, () => {
      const fw = buildFirmware(variant);
      try {
        const elf = parseElf(readFileSync(fw.elfPath));
        expect(elf.machineName).toBe(machine);
        expect(elf.architecture).toBe(architecture);
        expect(elf.symbolTable).toBe('.symtab');
        const version = execFileSync(`${fw.tools}gcc`, ['-dumpfullversion'], {
          encoding: 'utf8',
        }).trim();
        expect(elf.toolchain).toBe(`gcc-${version}`);
        expectMatchesReadelf(elf, (args) => binutils(fw, 'readelf', args), fw.elfPath);
        if (variant === 'arm-be') expect(elf.littleEndian).toBe(false);
        if (variant === 'riscv-c') expect(elf.is64).toBe(true);
      } finally {
        fw.cleanup();
      }
    });
  }

  describe('x86-64 shared library without .symtab', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'memtrail-dynsym-'));
      writeFileSync(
        join(dir, 'lib.c'),
        'int lib_counter = 3;\nstatic int hidden;\nint lib_add(int a) { hidden += a; return lib_counter + hidden; }\n',
      );
      execFileSync('gcc', [
        '-shared',
        '-fPIC',
        '-O1',
        '-o',
        join(dir, 'lib.so'),
        join(dir, 'lib.c'),
      ]);
      execFileSync('strip', ['--strip-all', join(dir, 'lib.so')]);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('falls back to .dynsym and matches readelf', () => {
      const path = join(dir, 'lib.so');
      const elf = parseElf(readFileSync(path));
      expect(elf.symbolTable).toBe('.dynsym');
      expect(elf.machineName).toBe('EM_X86_64');
      expect(elf.architecture).toBe('x86-64');
      expect(elf.fileTypeName).toBe('ET_DYN');
      expect(elf.symbols.map((s) => s.name)).toEqual(
        expect.arrayContaining(['lib_add', 'lib_counter']),
      );
      expectMatchesReadelf(
        elf,
        (args) => execFileSync('readelf', args, { encoding: 'utf8' }),
        path,
      );
    });
  });
});

describe('toolchain detection from .comment', () => {
  const comment = (...entries: string[]) => new TextEncoder().encode(entries.join('\0') + '\0');
  it.each([
    [['GCC: (15:12.2.rel1-1) 12.2.1 20221205'], 'gcc-12.2.1'],
    [['GCC: (GNU) 13.2.0'], 'gcc-13.2.0'],
    [
      ['Linker: LLD 15.0.7', 'clang version 15.0.7 (https://github.com/llvm/llvm-project)'],
      'clang-15.0.7',
    ],
    [['GCC: (GNU) 12.2.0', 'clang version 17.0.1'], 'clang-17.0.1'],
    [['rustc version 1.75.0 (82e1608df 2023-12-21)'], 'rustc-1.75.0'],
    [['Component: Arm Compiler for Embedded 6.21 Tool: armlink [5ec1fb00]'], 'armcc-6.21'],
    [['IAR ANSI C/C++ Compiler V9.40.1.364/W64 for ARM'], 'iar-9.40.1'],
    [['some unknown tool 1.0'], null],
  ])('%j → %s', (entries, expected) => {
    expect(detectToolchain(comment(...entries))).toBe(expected);
  });
});
