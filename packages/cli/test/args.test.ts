import { describe, expect, it } from '@jest/globals';
import { parseArgs, parseDefines, splitWords, UsageError, type CommandSpec } from '../src/args.js';
import { reportSpec } from '../src/commands/report.js';
import { run, tempDir } from './support.js';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'demo',
  usage: 'demo',
  positionals: [
    { name: 'elf', description: '' },
    { name: 'scripts', description: '', variadic: true },
  ],
  options: [
    { name: 'json', kind: 'boolean', description: '' },
    { name: 'map-file', kind: 'string', description: '' },
    { name: 'library-path', short: 'L', kind: 'list', description: '' },
    { name: 'base-sha', aliases: ['parent-sha'], kind: 'string', description: '' },
  ],
};

describe('parseArgs', () => {
  it('keeps positionals in order, including paths with spaces', () => {
    const args = parseArgs(spec, ['fw.elf', 'my scripts/a.ld', '--json', 'b.ld']);
    expect(args.positionals).toEqual(['fw.elf', 'my scripts/a.ld', 'b.ld']);
    expect(args.flag('json')).toBe(true);
  });

  it('reads --opt value, --opt=value, repeated lists and glued short options', () => {
    const args = parseArgs(spec, [
      '--map-file=fw.map',
      '-L',
      'ld',
      '-Lother',
      '--library-path',
      'third',
      'x.elf',
    ]);
    expect(args.string('map-file')).toBe('fw.map');
    expect(args.list('library-path')).toEqual(['ld', 'other', 'third']);
  });

  it('accepts aliases and empty values, and treats everything after -- as positional', () => {
    const args = parseArgs(spec, ['--parent-sha', '', '--', '--json']);
    expect(args.string('base-sha')).toBe('');
    expect(args.positionals).toEqual(['--json']);
    expect(args.flag('json')).toBe(false);
  });

  it('rejects unknown options, missing values and values on flags', () => {
    expect(() => parseArgs(spec, ['--nope'])).toThrow(new UsageError('unknown option --nope'));
    expect(() => parseArgs(spec, ['--map-file'])).toThrow(/--map-file needs a value/);
    expect(() => parseArgs(spec, ['--json=yes'])).toThrow(/--json takes no value/);
  });

  it('takes - as a positional and the next argument as a value even when it starts with -', () => {
    const args = parseArgs(spec, ['-', '--map-file', '-odd.map', '--map-file=']);
    expect(args.positionals).toEqual(['-']);
    expect(args.string('map-file')).toBe('');
    expect(parseArgs(spec, ['--map-file', '-odd.map']).string('map-file')).toBe('-odd.map');
  });

  it('names unknown short options and a short option missing its value', () => {
    expect(() => parseArgs(spec, ['-x'])).toThrow(new UsageError('unknown option -x'));
    expect(() => parseArgs(spec, ['-xyz'])).toThrow(new UsageError('unknown option -x'));
    expect(() => parseArgs(spec, ['-L'])).toThrow(/--library-path needs a value/);
    expect(() => parseArgs(spec, ['--nope=1'])).toThrow(new UsageError('unknown option --nope'));
  });

  it('refuses an API key on the command line and says where it goes', () => {
    expect(() => parseArgs(reportSpec, ['fw.elf', '--api-key', 'secret'])).toThrow(
      /MEMTRAIL_API_KEY/,
    );
  });

  it('rejects surplus positionals when none is variadic', () => {
    const fixed: CommandSpec = { ...spec, positionals: [{ name: 'a', description: '' }] };
    expect(() => parseArgs(fixed, ['one', 'two'])).toThrow(/unexpected argument 'two'/);
  });

  it('validates whole numbers and required strings', () => {
    const s: CommandSpec = { ...spec, options: [{ name: 'n', kind: 'string', description: '' }] };
    expect(parseArgs(s, ['--n', '12']).integer('n')).toBe(12);
    expect(() => parseArgs(s, ['--n', '1x']).integer('n')).toThrow(/whole number/);
    expect(() => parseArgs(s, []).requireString('n')).toThrow(/--n is required/);
  });
});

describe('parseDefines and splitWords', () => {
  it('parses NAME=VALUE pairs, the last definition winning', () => {
    expect(parseDefines(['__flash_size__=2048k', 'A = 1', 'A=2'], 'x')).toEqual({
      __flash_size__: '2048k',
      A: '2',
    });
    expect(() => parseDefines(['novalue'], 'x')).toThrow(/NAME=VALUE/);
    expect(() => parseDefines(['=1'], 'x')).toThrow(/NAME=VALUE/);
  });

  it('splits space- and comma-separated lists', () => {
    expect(splitWords(['v1 v2', 'v3,v4', ''])).toEqual(['v1', 'v2', 'v3', 'v4']);
  });
});

describe('exit codes of the command line', () => {
  const dir = tempDir();
  it('uses 2 for usage errors and 0 for help and version', async () => {
    expect((await run(['report', '--bogus'], dir.path)).code).toBe(2);
    expect((await run(['frobnicate'], dir.path)).code).toBe(2);
    const help = await run(['help', 'report'], dir.path);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--map-file FILE');
    const version = await run(['--version'], dir.path);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('uses 1 for a missing ELF file and names it', async () => {
    const result = await run(['report', 'missing.elf'], dir.path);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ELF file not found');
  });

  it('requires --upload for --identical and a target name for uploads', async () => {
    expect((await run(['report', '--identical'], dir.path)).stderr).toMatch(
      /only make sense with --upload/,
    );
    const noTarget = await run(['upload', '--identical'], dir.path);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/--target-name is required/);
    const noKey = await run(['upload', '--identical', '--target-name', 't'], dir.path);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/no API key: set MEMTRAIL_API_KEY or MEMBROWSE_API_KEY/);
    dir.cleanup();
  });
});
