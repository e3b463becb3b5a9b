import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePreprocessorLine, preprocess, PreprocessError } from '../src/cpp/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cpp');

/** GNU cpp's output for the same file and options: the ground truth, without line markers. */
function gnuCpp(file: string, args: string[]): { ok: boolean; text: string; stderr: string } {
  const result = spawnSync('arm-none-eabi-cpp', ['-undef', '-nostdinc', '-x', 'c', ...args, file], {
    cwd: fixtures,
    encoding: 'utf8',
  });
  const text = result.stdout
    .split('\n')
    .filter((line) => !/^# \d+ "/.test(line))
    .join('\n');
  return { ok: result.status === 0, text, stderr: result.stderr };
}

function ours(file: string, definitions: Array<[string, string]> = []) {
  return preprocess(file, readFileSync(join(fixtures, file), 'utf8'), {
    includeDirs: ['inc'],
    definitions,
    cwd: fixtures,
  });
}

/** Tokens only: cpp implementations differ in the whitespace they print between tokens. */
const squeeze = (text: string): string => text.replace(/\s+/g, '');

describe('the scatter-file preprocessor against GNU cpp', () => {
  it.each(['macros.c', 'conditionals.c', 'includes.c'])('%s gives the same tokens', (file) => {
    const truth = gnuCpp(file, ['-Iinc']);
    expect(truth.stderr).toBe('');
    const result = ours(file);
    expect(squeeze(result.lines.map((l) => l.text).join('\n'))).toBe(squeeze(truth.text));
  });

  it('keeps one output line per input line, with its origin', () => {
    const result = ours('macros.c');
    const source = readFileSync(join(fixtures, 'macros.c'), 'utf8').split('\n');
    expect(result.lines.length).toBe(source.length - 1);
    const region = result.lines.find((l) => l.text.startsWith('LR_IROM1'))!;
    expect(region).toMatchObject({ file: 'macros.c', line: 19 });
    expect(result.lines.find((l) => l.text.startsWith('; line '))).toMatchObject({
      text: '; line 29',
      line: 29,
    });
  });

  it('reads included files and says where each line came from', () => {
    const result = ours('includes.c');
    expect(result.files).toEqual([
      'includes.c',
      join(fixtures, 'inc/regions.h'),
      join(fixtures, 'inc/board.h'),
    ]);
  });

  it('applies -D and -U definitions in order, as on a command line', () => {
    const definitions: Array<[string, string]> = [['MBED_APP_SIZE', '0x1000']];
    const truth = gnuCpp('conditionals.c', ['-DMBED_APP_SIZE=0x1000']);
    const result = ours('conditionals.c', definitions);
    expect(squeeze(result.lines.map((l) => l.text).join('\n'))).toBe(squeeze(truth.text));
    expect(result.lines.some((l) => l.text.includes('size 0x1000'))).toBe(true);
  });

  it.each([
    [
      '#error stops with its message',
      '#if 1\n#error board not set\n#endif\n',
      /2:2: #error board not set/,
    ],
    ['#if needs #endif', '#if 1\nx\n', /1:2: #if without #endif/],
    ['#endif needs #if', '#endif\n', /#endif without #if/],
    ['#else after #else', '#if 0\n#else\n#else\n#endif\n', /#else after #else/],
    ['unknown directives', '#frobnicate\n', /invalid preprocessing directive '#frobnicate'/],
    ['missing include files', '#include "nope.h"\n', /cannot find include file 'nope.h'/],
    ['division by zero', '#if 1/0\n#endif\n', /division by zero in #if expression/],
    [
      'wrong argument counts',
      '#define F(a,b) a\nF(1)\n',
      /takes 2 argument\(s\), but 1 were given/,
    ],
    ['unterminated comments', 'x /* y\n', /unterminated \/\* comment/],
  ])('refuses %s, as cpp does', (_name, text, message) => {
    const file = 'inline.c';
    expect(() =>
      preprocess(file, text, { includeDirs: [], definitions: [], cwd: fixtures }),
    ).toThrow(message);
    const real = spawnSync('arm-none-eabi-cpp', ['-undef', '-nostdinc', '-x', 'c', '-'], {
      input: text,
      cwd: fixtures,
      encoding: 'utf8',
    });
    expect(real.status).not.toBe(0);
  });

  it('throws PreprocessError with the position', () => {
    try {
      preprocess('f.sct', '\n\n  #error no', { includeDirs: [], definitions: [], cwd: fixtures });
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(PreprocessError);
      expect((error as PreprocessError).position).toEqual({ file: 'f.sct', line: 3, column: 4 });
    }
  });

  it('refuses a macro expansion that grows without bound instead of exhausting memory', () => {
    const chain = Array.from({ length: 24 }, (_, i) => `#define M${i} M${i + 1} M${i + 1}`);
    const text = `${chain.join('\n')}\nM0\n`;
    expect(() =>
      preprocess('f.c', text, { includeDirs: [], definitions: [], cwd: fixtures }),
    ).toThrow(/macro expansion is too large/);
  });
});

describe('the #! line', () => {
  it('reads the tool, -I, -D and -U as armlink passes them on', () => {
    expect(
      parsePreprocessorLine(
        '#! armclang -E --target=arm-arm-none-eabi -mcpu=cortex-m33 -xc -I ../inc -Iboard -DBIG -DSIZE=0x100 -U OLD -mcmse',
      ),
    ).toEqual({
      tool: 'armclang',
      includeDirs: ['../inc', 'board'],
      definitions: [
        ['BIG', '1'],
        ['SIZE', '0x100'],
        ['OLD', undefined],
      ],
      cmse: true,
    });
    expect(parsePreprocessorLine('#!armcc -E')).toMatchObject({ tool: 'armcc' });
    expect(parsePreprocessorLine('#! "C:\\Keil\\ARM\\ARMCC\\bin\\armcc.exe" -E')).toMatchObject({
      tool: 'armcc',
    });
    expect(parsePreprocessorLine('LR_IROM1 0x0 {')).toBeUndefined();
  });
});
