import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { demangle, demangleRustLegacy, demangleRustV0 } from '../src/demangle/index.js';

// Fixtures come from fixtures/demangle/rust/generate.sh (it documents where each truth comes
// from); rustc is not needed at test time.
const dir = join(import.meta.dirname, 'fixtures', 'demangle', 'rust');

function rows(file: string): Array<[string, string]> {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t') as [string, string]);
}

function mismatches(file: string): Array<{ name: string; want: string; got: string }> {
  return rows(file)
    .map(([name, want]) => ({ name, want, got: demangle(name) }))
    .filter((row) => row.got !== row.want);
}

describe('Rust demangling', () => {
  it("matches rustc's own demangler on both manglings", () => {
    const all = rows('rustc.tsv');
    expect(all.filter(([name]) => name.startsWith('_R')).length).toBeGreaterThan(10);
    expect(all.filter(([name]) => name.startsWith('_ZN')).length).toBeGreaterThan(10);
    expect(mismatches('rustc.tsv')).toEqual([]);
  });

  it('matches every Rust symbol of compiled objects (generics, closures, impls, dyn, consts, std collections)', () => {
    expect(rows('corpus.tsv').length).toBeGreaterThan(900);
    expect(mismatches('corpus.tsv')).toEqual([]);
  });

  it('drops the legacy hash and decodes $-escapes', () => {
    expect(demangleRustLegacy('_ZN4core3fmt5write17h0123456789abcdefE')).toBe('core::fmt::write');
    expect(
      demangleRustLegacy(
        '_ZN58_$LT$alloc..string..String$u20$as$u20$core..fmt..Write$GT$9write_str17h0123456789abcdefE',
      ),
    ).toBe('<alloc::string::String as core::fmt::Write>::write_str');
    expect(demangleRustLegacy('_ZN3foo3bar17h0123456789abcdefE.llvm.1234')).toBe('foo::bar');
    expect(demangleRustLegacy('_ZN3foo3barE')).toBeNull();
  });

  it('decodes punycode identifiers and rejects malformed v0', () => {
    expect(demangleRustV0('_RNvNtCs81XBGYMfGVb_4dumpu14temprature_e7a12lire_capteur')).toBe(
      'dump::température::lire_capteur',
    );
    expect(demangleRustV0('_RNvCs81XBGYMfGVb_4dump')).toBeNull();
    expect(demangleRustV0('_RNvB9_4dump')).toBeNull();
    expect(demangle('_RNvCs_3foo3bar.llvm.1A2B')).toBe('foo::bar');
  });
});
