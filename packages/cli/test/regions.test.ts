import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempDir } from './support.js';

describe('memtrail regions', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  mkdirSync(join(dir.path, 'common dir'));
  writeFileSync(join(dir.path, 'common dir', 'sizes.ld'), '__ram_size__ = 64K;\n');
  writeFileSync(
    join(dir.path, 'board.ld'),
    [
      'INCLUDE sizes.ld',
      'MEMORY',
      '{',
      '  FLASH (rx) : ORIGIN = 0x08000000, LENGTH = __flash_size__',
      '  RAM (rwx)  : ORIGIN = 0x20000000, LENGTH = __ram_size__',
      '  CCMRAM     : ORIGIN = 0x10000000, LENGTH = 64K',
      '}',
      '',
    ].join('\n'),
  );

  it('prints the regions in script order, with -L includes and --def values', async () => {
    const result = await run(
      ['regions', 'board.ld', '-L', 'common dir', '--def', '__flash_size__=256K'],
      dir.path,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { name: 'FLASH', origin: 0x08000000, length: 256 * 1024, attributes: 'rx' },
      { name: 'RAM', origin: 0x20000000, length: 64 * 1024, attributes: 'rwx' },
      { name: 'CCMRAM', origin: 0x10000000, length: 64 * 1024, attributes: '' },
    ]);
  });

  it('fails with exit 1 and the script position when a value is undefined', async () => {
    const result = await run(['regions', 'board.ld', '-L', 'common dir'], dir.path);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/board\.ld:\d+:\d+/);
    expect(result.stderr).toContain('__flash_size__');
  });

  it('exits 2 without scripts and 1 for a missing script', async () => {
    expect((await run(['regions'], dir.path)).code).toBe(2);
    const missing = await run(['regions', 'nope.ld'], dir.path);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('linker configuration file not found');
  });
});
