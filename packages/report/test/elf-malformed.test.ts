import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { seededRandom } from '@memtrail/testing/random';
import { DwarfParseError } from '../src/dwarf/index.js';
import { ElfParseError, parseElf } from '../src/elf/index.js';
import { generateReport } from '../src/report/index.js';
import { type Firmware, buildFirmware } from './elf-firmware-build.js';

const report = (bytes: Uint8Array) => generateReport({ elf: bytes });

function expectTypedError(
  run: () => unknown,
  type: typeof ElfParseError | typeof DwarfParseError,
  message?: RegExp,
): void {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(type);
  if (message) expect((error as Error).message).toMatch(message);
}

describe('malformed input', () => {
  let fw: Firmware & { cleanup: () => void };
  let original: Uint8Array;
  let info: { offset: number; size: number };
  let abbrev: { offset: number; size: number };
  beforeAll(() => {
    fw = buildFirmware('arm-c-dwarf5');
    original = new Uint8Array(readFileSync(fw.elfPath));
    const elf = parseElf(original);
    info = elf.sectionByName('.debug_info')!;
    abbrev = elf.sectionByName('.debug_abbrev')!;
  });
  afterAll(() => fw.cleanup());

  const mutated = (edit: (bytes: Uint8Array, view: DataView) => void) => {
    const bytes = original.slice();
    edit(bytes, new DataView(bytes.buffer));
    return bytes;
  };

  it('rejects garbage and truncated files with ElfParseError', () => {
    const random = seededRandom(1);
    const garbage = Uint8Array.from({ length: 4096 }, () => Math.floor(random() * 256));
    expectTypedError(() => parseElf(garbage), ElfParseError, /not an ELF file/);
    garbage.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1]);
    expectTypedError(() => parseElf(garbage), ElfParseError);
    for (const length of [0, 4, 16, 40, 51, original.length >> 1, original.length - 1]) {
      expectTypedError(() => report(original.subarray(0, length)), ElfParseError);
    }
  });

  it('rejects hostile DWARF with DwarfParseError', () => {
    // Reserved and oversized unit lengths.
    expectTypedError(
      () => report(mutated((_, v) => v.setUint32(info.offset, 0xfffffff0, true))),
      DwarfParseError,
      /reserved unit length/,
    );
    expectTypedError(
      () => report(mutated((_, v) => v.setUint32(info.offset, 0x7fffffff, true))),
      DwarfParseError,
      /runs past the end/,
    );
    // DWARF 5 header: length(4) version(2) unit_type(1) address_size(1) abbrev_offset(4).
    expectTypedError(
      () => report(mutated((_, v) => v.setUint32(info.offset + 8, 0xffffff00, true))),
      DwarfParseError,
      /outside the section/,
    );
    // An abbreviation table made of one endless LEB128, and one whose attribute list never ends.
    expectTypedError(
      () => report(mutated((b) => b.fill(0x80, abbrev.offset, abbrev.offset + abbrev.size))),
      DwarfParseError,
      /LEB128/,
    );
    expectTypedError(
      () => report(mutated((b) => b.fill(0x01, abbrev.offset + 3, abbrev.offset + abbrev.size))),
      DwarfParseError,
      /runs past the end|declared twice/,
    );
    // A huge LEB128 as the first DIE's abbreviation code.
    expectTypedError(
      () => report(mutated((b) => b.fill(0xff, info.offset + 12, info.offset + 24))),
      DwarfParseError,
      /LEB128/,
    );
    // An address size DWARF does not have.
    expectTypedError(
      () => report(mutated((b) => (b[info.offset + 7] = 3))),
      DwarfParseError,
      /address size 3/,
    );
  });

  it('survives 300 random mutations with a report or a typed error', () => {
    const random = seededRandom(20261121);
    const pick = (from: number, size: number) => from + Math.floor(random() * size);
    const outcomes = { report: 0, elf: 0, dwarf: 0 };
    for (let iteration = 0; iteration < 300; iteration++) {
      const bytes = original.slice();
      const edits = 1 + Math.floor(random() * 8);
      for (let e = 0; e < edits; e++) {
        const where = random();
        // Mostly the debug information, where parsing is most involved; also headers and anywhere.
        const at =
          where < 0.6
            ? pick(info.offset, info.size)
            : where < 0.75
              ? pick(abbrev.offset, abbrev.size)
              : where < 0.85
                ? pick(0, 64)
                : pick(0, bytes.length);
        bytes[at] = random() < 0.3 ? 0xff : Math.floor(random() * 256);
      }
      try {
        report(bytes);
        outcomes.report++;
      } catch (error) {
        if (error instanceof ElfParseError) outcomes.elf++;
        else if (error instanceof DwarfParseError) outcomes.dwarf++;
        else
          throw new Error(
            `iteration ${iteration}: untyped ${(error as Error).name}: ${(error as Error).message}`,
          );
      }
    }
    expect(outcomes.report + outcomes.elf + outcomes.dwarf).toBe(300);
    expect(outcomes.dwarf).toBeGreaterThan(0);
  });
});
