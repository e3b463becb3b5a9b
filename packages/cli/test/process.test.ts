/**
 * The built CLI as users run it: a real `node dist/bin.js` process, checked by exit code and
 * output. The package is compiled first (incremental, so cheap when nothing changed).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  cleanEnv,
  json,
  makeRepo,
  recordingServer,
  successBody,
  tempDir,
  type RecordingServer,
} from './support.js';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = join(PACKAGE, '..', '..');
const BIN = join(PACKAGE, 'dist', 'bin.js');

function cli(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('memtrail as a process', () => {
  const dir = tempDir();
  let server: RecordingServer;

  beforeAll(async () => {
    execFileSync('npx', ['tsc', '-b', 'packages/cli'], { cwd: ROOT, stdio: 'pipe' });
    makeRepo(dir.path).commit('first', { 'main.c': 'int main(void){return 0;}' });
    server = await recordingServer([
      json(
        200,
        successBody({
          alerts: {
            budgets: [
              {
                budget_name: 'B',
                exceeded_regions: ['FLASH'],
                current_usage: { FLASH: 2 },
                limits: { FLASH: 1 },
                exceeded_by: { FLASH: 1 },
              },
            ],
          },
        }),
      ),
    ]);
  }, 120_000);
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });

  it('prints the version and help with exit 0, usage errors with exit 2', async () => {
    const version = await cli(['--version'], dir.path, cleanEnv());
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string })
        .version,
    );
    const help = await cli(['help'], dir.path, cleanEnv());
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Commands:\n {2}report/);
    const usage = await cli(['onboard', '--build', 'make'], dir.path, cleanEnv());
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('memtrail onboard: --elf is required');
  });

  it('uploads and exits 1 on budget alerts, 0 with --dont-fail-on-alerts', async () => {
    const env = cleanEnv({ MEMTRAIL_API_KEY: 'k' });
    const failing = await cli(
      ['upload', '--identical', '--target-name', 'proc', '--api-url', server.url],
      dir.path,
      env,
    );
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('Budget alerts detected');
    const passing = await cli(
      [
        'upload',
        '--identical',
        '--target-name',
        'proc',
        '--api-url',
        server.url,
        '--dont-fail-on-alerts',
      ],
      dir.path,
      env,
    );
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(/^Uploaded proc @ [0-9a-f]{7}: FLASH \+13 B, RAM 0 B/);
    expect((server.requests.at(-1)!.json as UploadEnvelope).metadata.target_name).toBe('proc');
  });

  it('exits 1 for a missing ELF', async () => {
    const result = await cli(['report', 'nope.elf', 'a b.ld'], dir.path, cleanEnv());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ELF file not found');
  });
});
