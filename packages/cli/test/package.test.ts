/**
 * `npm pack` of the CLI gives a self-contained package: installed from the tarball alone, with no
 * registry (it has no dependencies), it runs `memtrail` like the workspace build does.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFirmwareProject, ELF, SCRIPT, SCRIPT_DIR } from './firmware.js';
import { run, tempDir } from './support.js';

const PACKAGE = join(import.meta.dirname, '..');
const ROOT = join(PACKAGE, '..', '..');

describe('the packed memtrail package', () => {
  const work = tempDir('memtrail-pack-');
  const app = join(work.path, 'app');
  const firmware = join(work.path, 'fw');
  let files: string[];
  const memtrail = (args: string[]) =>
    execFileSync(join(app, 'node_modules', '.bin', 'memtrail'), args, {
      cwd: firmware,
      encoding: 'utf8',
    });

  beforeAll(() => {
    // prepack bundles the sources, so the tarball never carries stale output.
    execFileSync('npm', ['pack', '-w', 'packages/cli', '--pack-destination', work.path], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    const tarball = join(
      work.path,
      readdirSync(work.path).find((f) => f.endsWith('.tgz'))!,
    );
    files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), '{"name":"uses-memtrail","private":true}\n');
    execFileSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      { cwd: app, stdio: 'pipe' },
    );
    buildFirmwareProject(firmware);
  }, 120_000);
  afterAll(() => work.cleanup());

  it('holds only the bundle, and declares no dependencies', () => {
    expect(files.sort()).toEqual([
      'package/README.md',
      'package/bundle/index.js',
      'package/bundle/main.js',
      'package/bundle/memtrail.js',
      'package/package.json',
    ]);
    const installed = JSON.parse(
      readFileSync(join(app, 'node_modules', 'memtrail', 'package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(installed.dependencies).toBeUndefined();
    expect(readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual([
      'memtrail',
    ]);
  });

  it('runs --version, regions and report from the installed package', async () => {
    const version = (
      JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    expect(memtrail(['--version']).trim()).toBe(version);
    expect(JSON.parse(memtrail(['regions', join(SCRIPT_DIR, 'memory.ld')]))).toEqual([
      { name: 'FLASH', origin: 0x08000000, length: 128 * 1024, attributes: 'rx' },
      { name: 'RAM', origin: 0x20000000, length: 32 * 1024, attributes: 'rwx' },
    ]);
    const args = ['report', ELF, SCRIPT, '-L', SCRIPT_DIR, '--json'];
    const fromSources = await run(args, firmware);
    expect(fromSources.code).toBe(0);
    expect(JSON.parse(memtrail(args))).toEqual(JSON.parse(fromSources.stdout));
  });
});
