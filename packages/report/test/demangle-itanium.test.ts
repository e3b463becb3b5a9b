import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { demangle, demangleItanium } from '../src/demangle/index.js';

// Ground truth is binutils' c++filt, run here on names from freshly compiled C++.
const fixtures = join(import.meta.dirname, 'fixtures', 'demangle');
const work = mkdtempSync(join(tmpdir(), 'memtrail-demangle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cxxfilt(names: string[]): string[] {
  const out = execFileSync('arm-none-eabi-c++filt', {
    input: names.join('\n') + '\n',
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  return out.split('\n').slice(0, names.length);
}

function compiledNames(source: string, flags: string[]): string[] {
  const object = join(work, source.replace(/\W/g, '_') + '.o');
  execFileSync('arm-none-eabi-g++', ['-w', ...flags, '-c', join(fixtures, source), '-o', object]);
  const nm = execFileSync('arm-none-eabi-nm', [object]).toString();
  const names = nm
    .split('\n')
    .map((line) => line.trim().split(/\s+/).pop() ?? '')
    .filter((name) => name.startsWith('_Z'));
  return [...new Set(names)].sort();
}

function expectSameAsCxxfilt(names: string[]): void {
  const truth = cxxfilt(names);
  const mismatches = names
    .map((name, k) => ({ name, want: truth[k], got: demangleItanium(name) ?? name }))
    .filter((row) => row.got !== row.want);
  expect(mismatches).toEqual([]);
}

describe('Itanium demangler against c++filt', () => {
  it('matches every symbol of a compiled C++17 firmware file, clone suffixes included', () => {
    const names = compiledNames('corpus.cpp', [
      '-std=gnu++17',
      '-O2',
      '-fipa-cp-clone',
      '-fno-exceptions',
    ]);
    expect(names.length).toBeGreaterThan(100);
    // The corpus must exercise each clone kind the ARM compiler produces.
    for (const kind of ['.constprop.', '.isra.', '.part.']) {
      expect(names.some((name) => name.includes(kind))).toBe(true);
    }
    expectSameAsCxxfilt(names);
  });

  it('matches every symbol of a C++20 file with rarer grammar', () => {
    const names = compiledNames('exotic.cpp', ['-std=gnu++20', '-O1']);
    expect(names.length).toBeGreaterThan(90);
    expectSameAsCxxfilt(names);
  });

  it('matches every symbol of a libstdc++-heavy file (containers, variant, regex, tuple)', () => {
    const names = gunzipSync(readFileSync(join(fixtures, 'stdlib-names.txt.gz')))
      .toString()
      .split('\n')
      .filter((name) => name.startsWith('_Z'));
    expect(names.length).toBeGreaterThan(3500);
    expectSameAsCxxfilt(names);
  });

  it('matches hand-picked names, including malformed ones left unchanged', () => {
    const names = readFileSync(join(fixtures, 'itanium-tricky.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(names.length).toBeGreaterThan(250);
    expectSameAsCxxfilt(names);
  });
});

describe('demangle()', () => {
  it('prints clone suffixes the way c++filt does', () => {
    expect(demangle('_ZL5scaleii.constprop.0')).toBe('scale(int, int) [clone .constprop.0]');
    expect(demangle('_Z3fooi.part.0.constprop.0')).toBe(
      'foo(int) [clone .part.0] [clone .constprop.0]',
    );
    expect(demangle('_Z3fooi.isra.0.cold')).toBe('foo(int) [clone .isra.0] [clone .cold]');
  });

  it('demangles data names with a clone suffix, which c++filt leaves mangled', () => {
    expect(cxxfilt(['_ZL7counter.lto_priv.0'])).toEqual(['_ZL7counter.lto_priv.0']);
    expect(demangle('_ZL7counter.lto_priv.0')).toBe('counter [clone .lto_priv.0]');
    expect(demangle('_ZN2hw5tableE.lto_priv.3')).toBe('hw::table [clone .lto_priv.3]');
  });

  it('names reference temporaries of namespace-scope names, which c++filt does not', () => {
    // GCC emits `_ZGR1x_` for `const int &x = 1;`; libiberty fails on the unscoped form only.
    expect(cxxfilt(['_ZGR1x_', '_ZGRL1x_'])).toEqual(['_ZGR1x_', 'reference temporary #0 for x']);
    expect(demangle('_ZGR1x_')).toBe('reference temporary #0 for x');
    expect(demangle('_ZGR1x0_')).toBe('reference temporary #1 for x');
  });

  it('leaves C names, linker symbols and garbage unchanged', () => {
    for (const name of [
      'main',
      'scale.constprop.0',
      '_estack',
      '__bss_start__',
      '_Z',
      '_Zfoo',
      '_R',
      '_RNv',
    ]) {
      expect(demangle(name)).toBe(name);
    }
  });
});
