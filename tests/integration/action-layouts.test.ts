/**
 * The root GitHub Action with an IAR .icf file and a Keil scatter file in its `ld` input: its
 * steps run in a simulated Actions job with the CLI bundled from this checkout, `linker_vars`
 * become --def and `library_paths` -L, and the report it uploads (to a local stand-in of the
 * upload endpoint) has the regions of those layouts.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryReport } from '@memtrail/contracts';
import {
  cleanEnv,
  json,
  makeRepo,
  recordingServer,
  successBody,
  tempDir,
  type RecordingServer,
} from '../../packages/cli/test/support.js';
import { buildLayoutFirmware, type Firmware } from '../../packages/report/test/layout-firmware.js';
import { runCompositeAction } from './composite-action.js';
import { ACTION_FILES } from './support/action-sources.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'packages/report/test/fixtures');

describe('the GitHub Action with IAR and Keil layouts', () => {
  const dirs = tempDir('memtrail-action-layouts-');
  const action = join(dirs.path, 'action');
  const workspace = join(dirs.path, 'workspace');
  let firmware: Firmware;
  let server: RecordingServer;

  beforeAll(async () => {
    for (const path of ACTION_FILES)
      cpSync(join(ROOT, path), join(action, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(action, 'node_modules'));
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/rolldown/bin/cli.mjs'), '-c', 'rolldown.config.mjs'],
      { cwd: join(action, 'packages/cli'), stdio: 'pipe' },
    );

    mkdirSync(workspace);
    const repo = makeRepo(workspace);
    cpSync(join(FIXTURES, 'scatter/07-infineon-psoc6-cm4.sct'), join(workspace, 'fw.sct'));
    cpSync(join(FIXTURES, 'scatter/16-include-from-search-path.sct'), join(workspace, 'xip.sct'));
    cpSync(join(FIXTURES, 'scatter/lib'), join(workspace, 'board'), { recursive: true });
    cpSync(join(FIXTURES, 'icf/02-nxp-kinetis-union.icf'), join(workspace, 'fw.icf'));
    writeFileSync(join(workspace, '.gitignore'), '*.elf\n');
    repo.commit('firmware', {});
    firmware = buildLayoutFirmware();
    cpSync(
      firmware.link(join(FIXTURES, 'scatter/elf/07-infineon-psoc6-cm4.ld'), 'keil'),
      join(workspace, 'keil.elf'),
    );
    cpSync(
      firmware.link(join(FIXTURES, 'icf/elf/02-nxp-kinetis-union.ld'), 'iar'),
      join(workspace, 'iar.elf'),
    );
    server = await recordingServer([json(200, successBody())]);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    firmware?.cleanup();
    dirs.cleanup();
  });

  async function upload(inputs: Record<string, string>): Promise<MemoryReport> {
    const before = server.requests.length;
    const summary = join(dirs.path, 'summary.md');
    writeFileSync(summary, '');
    const run = await runCompositeAction({
      actionPath: action,
      inputs: { target_name: 'board', api_key: 'mt_test_key', api_url: server.url, ...inputs },
      env: { ...cleanEnv(), GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: dirs.path },
      workspace,
    });
    const report = run.steps.find((s) => s.id === 'report')!;
    expect({ failed: run.failed, stderr: report.stderr }).toEqual({
      failed: false,
      stderr: expect.any(String),
    });
    expect(server.requests.length).toBe(before + 1);
    const body = server.requests[before]!.json as { memory_analysis: MemoryReport };
    return body.memory_analysis;
  }

  it('uploads the regions of an Arm scatter file given in ld', async () => {
    const report = await upload({ elf: 'keil.elf', ld: 'fw.sct' });
    expect(Object.keys(report.memory_layout)).toContain('ER_FLASH_CODE');
    expect(report.memory_layout.ER_FLASH_CODE).toMatchObject({ parent: 'LR_IROM1', type: 'FLASH' });
    expect(report.memory_layout.RW_RAM_DATA!.type).toBe('RAM');
  });

  it('passes library_paths as -L for the scatter file #include', async () => {
    const report = await upload({ elf: 'keil.elf', ld: 'xip.sct', library_paths: 'board' });
    expect(report.memory_layout.ER_IROM1).toMatchObject({
      address: 0x00400000,
      limit_size: 0x200000,
    });
  });

  it('uploads the regions of an IAR ICF file, with linker_vars as --config_def', async () => {
    const report = await upload({
      elf: 'iar.elf',
      ld: 'fw.icf',
      linker_vars: '__stack_size__=0x800 __heap_size__=0x200',
    });
    expect(report.memory_layout['TEXT_region#2']).toMatchObject({ address: 0x410 });
    expect(report.memory_layout.CSTACK_region).toMatchObject({
      address: 0x2002f800,
      limit_size: 0x800,
    });
  });
});
