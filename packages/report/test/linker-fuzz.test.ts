import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LinkerScriptError, loadLinkerScripts } from '@memtrail/report';

const cases = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'linker', 'cases');
const seeds = readdirSync(cases).map((file) => readFileSync(join(cases, file), 'utf8'));
const PIECES = [
  '(',
  ')',
  '{',
  '}',
  ';',
  ',',
  ':',
  '=',
  '?',
  '!',
  '~',
  '-',
  '<<',
  '>>',
  '/*',
  '*/',
  '#',
  '"',
  '0x',
  'K',
  'M',
  '1h',
  'ORIGIN(',
  'MEMORY',
  'SECTIONS',
  'PROVIDE(',
  'INCLUDE x.ld',
  '\n',
  ' ',
  'ALIGN(',
  'MAX(',
  '.',
];

/** xorshift32: deterministic, so a failure always reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function mutate(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 6);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const choice = next();
    if (choice < 0.4)
      out = out.slice(0, at) + PIECES[Math.floor(next() * PIECES.length)] + out.slice(at);
    else if (choice < 0.7) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 8));
    else
      out =
        out.slice(0, at) + out.slice(Math.floor(next() * out.length)).slice(0, 40) + out.slice(at);
  }
  return out;
}

describe('linker script fuzzing', () => {
  it('mutated and random scripts end in a model or a LinkerScriptError, never a crash or a hang', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-fuzz-'));
    const next = random(0x5eed);
    const outcomes = { parsed: 0, rejected: 0 };
    for (let round = 0; round < 1500; round++) {
      const base = seeds[round % seeds.length]!;
      const text =
        round % 10 === 9
          ? Array.from({ length: 60 }, () => PIECES[Math.floor(next() * PIECES.length)]).join('')
          : mutate(base, next);
      writeFileSync(join(dir, 'fuzz.ld'), text);
      try {
        loadLinkerScripts({ inputs: [{ script: 'fuzz.ld' }], cwd: dir });
        outcomes.parsed++;
      } catch (error) {
        if (!(error instanceof LinkerScriptError))
          throw new Error(`round ${round}: ${String(error)}\n--- script ---\n${text}`);
        expect(error.message.length).toBeGreaterThan(0);
        outcomes.rejected++;
      }
    }
    // Both outcomes must occur, or the mutations are not exercising anything.
    expect(outcomes.parsed).toBeGreaterThan(50);
    expect(outcomes.rejected).toBeGreaterThan(50);
    // A hang (a parser loop that never ends) fails by the test's time-out, not a timed check.
  });

  it('deep nesting is refused, not a stack overflow', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memtrail-fuzz-'));
    writeFileSync(join(dir, 'deep.ld'), `x = ${'('.repeat(5000)}1${')'.repeat(5000)};\n`);
    writeFileSync(join(dir, 'unary.ld'), `x = ${'-'.repeat(5000)}1;\n`);
    expect(() => loadLinkerScripts({ inputs: [{ script: 'deep.ld' }], cwd: dir })).toThrow(
      /nested too deeply/,
    );
    expect(() => loadLinkerScripts({ inputs: [{ script: 'unary.ld' }], cwd: dir })).toThrow(
      /nested too deeply/,
    );
  });
});
