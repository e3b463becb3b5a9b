/**
 * The CLI on real firmware compiled by arm-none-eabi-gcc during the test: reports (text, JSON,
 * map file, -L includes), uploads of full reports, log levels, local diffs and onboarding with
 * builds in a worktree. Ground truth comes from binutils.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryReport, ReportDiff, UploadEnvelope } from '@memtrail/contracts';
import {
  buildFirmwareProject,
  ELF,
  firmwareFiles,
  MAP,
  SCRIPT,
  SCRIPT_DIR,
  sectionSizes,
} from './firmware.js';
import {
  cleanEnv,
  git,
  inAddressOrder,
  json,
  makeRepo,
  recordingServer,
  run,
  successBody,
  tempDir,
  type RecordingServer,
} from './support.js';

const REPORT_ARGS = [ELF, SCRIPT, '-L', SCRIPT_DIR, '--map-file', MAP];

/** `nm -S` sizes of the defined symbols that have a size. */
function nmSizes(elf: string): Map<string, number> {
  const out = execFileSync('arm-none-eabi-nm', ['-S', '--defined-only', elf], { encoding: 'utf8' });
  const sizes = new Map<string, number>();
  for (const line of out.split('\n')) {
    const m = /^[0-9a-f]+ ([0-9a-f]+) \w (\S+)$/.exec(line);
    if (m) sizes.set(m[2]!, parseInt(m[1]!, 16));
  }
  return sizes;
}

describe('memtrail report on a compiled firmware', () => {
  const dir = tempDir('memtrail-fw-');
  let elf: string;
  let report: MemoryReport;
  let server: RecordingServer;

  beforeAll(async () => {
    elf = buildFirmwareProject(dir.path);
    const result = await run(['report', ...REPORT_ARGS, '--json'], dir.path);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    report = JSON.parse(result.stdout) as MemoryReport;
    server = await recordingServer([json(200, successBody())]);
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
  });

  it('maps sections into the INCLUDEd MEMORY regions with the sizes binutils reports', () => {
    const size = sectionSizes(elf);
    const flash = report.memory_layout.FLASH!;
    const ram = report.memory_layout.RAM!;
    expect(flash).toMatchObject({ address: 0x08000000, limit_size: 128 * 1024 });
    expect(ram).toMatchObject({ address: 0x20000000, limit_size: 32 * 1024 });
    // .data counts twice: in RAM where it runs and in FLASH where its initial values are stored.
    expect(flash.used_size).toBe(
      size.get('.isr_vector')! + size.get('.text')! + size.get('.data')!,
    );
    expect(ram.used_size).toBe(size.get('.data')! + size.get('.bss')!);
    expect(ram.free_size).toBe(32 * 1024 - ram.used_size);
    expect(report.file_path).toBe(ELF);
  });

  it('reports every sized symbol with the size nm gives, and archive/object from the map', () => {
    const expected = nmSizes(elf);
    expect(expected.size).toBeGreaterThanOrEqual(5);
    for (const [name, size] of expected) {
      const found = report.symbols.filter((s) => s.name === name);
      expect(found.map((s) => s.size)).toEqual([size]);
    }
    expect(report.symbols.find((s) => s.name === 'buffer')).toMatchObject({
      size: 256,
      section: '.bss',
      object_file: 'out/main.o',
      source_file: 'src/main.c',
    });
  });

  it('prints the text report and fails clearly without -L or regions', async () => {
    const text = await run(['report', ...REPORT_ARGS], dir.path);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^FLASH\s+0x08000000-0x0801FFFF\s+128\.0 KB/m);
    expect(text.stdout).toMatch(
      /^buffer\s+0x20000004\s+256\s+OBJECT\s+\.bss\s+src\/main\.c:\d+\s+out\/main\.o$/m,
    );

    const noInclude = await run(['report', ELF, SCRIPT], dir.path);
    expect(noInclude.code).toBe(1);
    expect(noInclude.stderr).toContain("cannot find INCLUDE file 'memory.ld'");

    const defaults = await run(['report', ELF, '--json'], dir.path);
    expect(defaults.code).toBe(0);
    expect(defaults.stderr).toMatch(/^WARNING: .*default Code\/Data regions/m);
    expect(Object.keys((JSON.parse(defaults.stdout) as MemoryReport).memory_layout)).toEqual([
      'Code',
      'Data',
    ]);
    const required = await run(['report', ELF, '--require-regions'], dir.path);
    expect(required.code).toBe(2);
    expect(required.stderr).toContain('--require-regions');
  });

  it('uploads the full report exactly as report --json prints it, logging by level', async () => {
    const env = cleanEnv({ MEMTRAIL_API_KEY: 'k' });
    const upload = [
      'upload',
      ...REPORT_ARGS,
      '--target-name',
      'fw',
      '--api-url',
      server.url,
      '--no-git',
      '--commit-sha',
      'abc1234',
    ];
    const result = await run(upload, dir.path, env);
    expect(result.code).toBe(0);
    const sent = server.requests.at(-1)!;
    expect(sent.headers['content-encoding']).toBe('gzip');
    expect(sent.form).toBe('blocks');
    const envelope = sent.json as UploadEnvelope;
    expect(inAddressOrder(envelope.memory_analysis)).toEqual(inAddressOrder(report));
    expect(envelope.metadata).toMatchObject({
      target_name: 'fw',
      identical: false,
      architecture: 'ARM',
    });
    expect(result.stderr).toMatch(
      /^INFO: \(abc1234\) POST http:\/\/127\.0\.0\.1:\d+\/upload \(attempt 1 of 5\)\.\.\.$/m,
    );
    expect(result.stderr).not.toContain('DEBUG:');

    const quiet = await run(['-v', 'WARNING', ...upload], dir.path, env);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const verbose = await run(['--verbose', 'DEBUG', ...upload], dir.path, env);
    expect(verbose.stderr).toContain(
      'DEBUG: comparison URL: http://example.test/compare?base=a&head=b',
    );
    expect(verbose.stderr).toContain('INFO: (abc1234) POST');
    const bad = await run(['-v', 'LOUD', 'report', ELF], dir.path, env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown log level 'LOUD'");
    const late = await run(['report', ELF, '-v', 'DEBUG'], dir.path, env);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('put it before the command (memtrail -v DEBUG report');
  });

  it('sends the JSON envelope to a server that refuses the block form', async () => {
    const older = await recordingServer([
      json(400, { success: false, error: 'Request body is not valid UTF-8', type: 'BadRequest' }),
      json(200, successBody()),
    ]);
    try {
      const env = cleanEnv({ MEMTRAIL_API_KEY: 'k' });
      const args = ['upload', ...REPORT_ARGS, '--target-name', 'fw', '--api-url', older.url];
      const result = await run([...args, '--no-git', '--commit-sha', 'abc1234'], dir.path, env);
      expect(result.code).toBe(0);
      expect(older.requests.map((r) => [r.form, r.headers['content-type']])).toEqual([
        ['blocks', 'application/vnd.memtrail.blocks'],
        ['json', 'application/json'],
      ]);
      // As JSON the symbols go in the report's own order.
      expect((older.requests[1]!.json as UploadEnvelope).memory_analysis).toEqual(report);
      expect(result.stderr).toContain('the server did not take the block form (400)');
    } finally {
      await older.close();
    }
  });

  it('diffs two builds locally: regions, sections and symbols', async () => {
    writeFileSync(join(dir.path, 'old.json'), JSON.stringify(report));
    buildFirmwareProject(dir.path, { bufferSize: 1024, withFeature: true });
    const newer = await run(['report', ...REPORT_ARGS, '--json'], dir.path);
    writeFileSync(join(dir.path, 'new.json'), newer.stdout);
    const newReport = JSON.parse(newer.stdout) as MemoryReport;

    const asJson = await run(['diff', 'old.json', 'new.json', '--json'], dir.path);
    expect(asJson.code).toBe(0);
    const diff = JSON.parse(asJson.stdout) as ReportDiff;
    const ram = diff.regions.find((r) => r.name === 'RAM')!;
    expect(ram.used_change).toBe(
      newReport.memory_layout.RAM!.used_size - report.memory_layout.RAM!.used_size,
    );
    expect(ram.used_change).toBeGreaterThanOrEqual(768);
    const buffer = diff.symbols.find((s) => s.name === 'buffer')!;
    expect(buffer).toMatchObject({ status: 'modified', delta: 768 });

    const text = await run(['diff', 'old.json', 'new.json'], dir.path);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(
        `^RAM\\s+modified\\s+${report.memory_layout.RAM!.used_size}\\s+${newReport.memory_layout.RAM!.used_size}\\s+\\+${ram.used_change} B`,
        'm',
      ),
    );
    expect(text.stdout).toMatch(
      /^modified\s+buffer\s+256\s+1024\s+\+768 B\s+\.bss\s+src\/main\.c$/m,
    );
    expect(text.stdout).toMatch(/^RAM\s+\.bss\s+modified\s+256\s+1024\s+\+768 B/m);
    expect(text.stdout).toContain(
      `Total: regions +${diff.regions.reduce((s, r) => s + r.used_change, 0)} B`,
    );

    // An upload envelope is accepted as well as a bare report; nonsense is refused.
    writeFileSync(
      join(dir.path, 'envelope.json'),
      JSON.stringify({ metadata: {}, memory_analysis: report }),
    );
    const same = await run(['diff', 'envelope.json', 'old.json', '--json'], dir.path);
    expect((JSON.parse(same.stdout) as ReportDiff).symbols).toEqual([]);
    writeFileSync(join(dir.path, 'junk.json'), '{"a":1}');
    const junk = await run(['diff', 'junk.json', 'old.json'], dir.path);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toContain('junk.json is not a memory report');
    expect((await run(['diff', 'old.json'], dir.path)).code).toBe(2);

    // A saved report renders like the ELF it came from, and uploads unchanged.
    const fromJson = await run(['report', '--from-json', 'new.json'], dir.path);
    expect(fromJson.code).toBe(0);
    expect(fromJson.stdout).toBe((await run(['report', ...REPORT_ARGS], dir.path)).stdout);
    expect((await run(['report', ELF, '--from-json', 'new.json'], dir.path)).code).toBe(2);
    const uploaded = await run(
      ['upload', '--from-json', 'new.json', '--target-name', 'fw', '--api-url', server.url],
      dir.path,
      cleanEnv({ MEMTRAIL_API_KEY: 'k' }),
    );
    expect(uploaded.code).toBe(0);
    expect(
      inAddressOrder((server.requests.at(-1)!.json as UploadEnvelope).memory_analysis),
    ).toEqual(inAddressOrder(newReport));
  });
});

describe('memtrail onboard building real firmware', () => {
  const dir = tempDir('memtrail-fw-repo-');
  const worktrees = tempDir('memtrail-fw-wt-');
  const shas: string[] = [];
  let server: RecordingServer;
  const env = cleanEnv({ MEMTRAIL_API_KEY: 'k' });
  const args = (extra: string[] = []) => [
    'onboard',
    '4',
    '--build',
    'sh build.sh',
    '--elf',
    ELF,
    '--ld',
    SCRIPT,
    '-L',
    SCRIPT_DIR,
    '--map-file',
    MAP,
    '--target-name',
    'board',
    '--api-url',
    server.url,
    '--worktree-dir',
    join(worktrees.path, 'wt'),
    '--build-dirs',
    'src ld',
    ...extra,
  ];

  beforeAll(async () => {
    const repo = makeRepo(dir.path);
    shas.push(repo.commit('firmware', firmwareFiles()));
    shas.push(repo.commit('docs only', { 'README.md': 'board firmware\n' }));
    shas.push(repo.commit('bigger buffer', firmwareFiles({ bufferSize: 512, withFeature: true })));
    shas.push(repo.commit('more docs', { 'README.md': 'board firmware, v2\n' }));
    writeFileSync(join(dir.path, '.gitignore'), 'out/\n');
    server = await recordingServer([json(200, successBody())]);
  });
  afterAll(async () => {
    await server.close();
    dir.cleanup();
    worktrees.cleanup();
  });

  it('--dry-run builds and analyses every commit but uploads nothing', async () => {
    const result = await run(args(['--dry-run']), dir.path, env);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    expect(result.stderr).toMatch(
      new RegExp(`${shas[0]!.slice(0, 7)} would upload full: FLASH \\d+ B, RAM 260 B`),
    );
    expect(result.stderr).toMatch(new RegExp(`${shas[1]!.slice(0, 7)} would upload identical`));
    expect(result.stderr).toMatch(
      new RegExp(`${shas[2]!.slice(0, 7)} would upload full: FLASH \\d+ B, RAM 516 B`),
    );
    expect(result.stderr).toContain('would upload 4 (2 built, 2 identical, 0 build failed)');
  });

  it('uploads full reports for built commits and identical ones for commits outside --build-dirs', async () => {
    const result = await run(args(), dir.path, env);
    expect(result.stderr).toContain('uploaded 4 (2 built, 2 identical, 0 build failed)');
    expect(result.code).toBe(0);
    // Uploads only: onboarding first asks the server's summary whether a commit is uploaded.
    const sent = server.requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.json as UploadEnvelope);
    expect(sent.map((e) => [e.metadata.git.commit_hash, e.metadata.identical])).toEqual([
      [shas[0], false],
      [shas[1], true],
      [shas[2], false],
      [shas[3], true],
    ]);
    expect(sent[1]!.memory_analysis.memory_layout).toEqual({});
    expect(sent[2]!.metadata.git.base_commit_hash).toBe(shas[1]);

    // Each built commit's report is what `memtrail report` gives for that commit's build.
    execFileSync('sh', ['build.sh'], { cwd: dir.path });
    const local = await run(['report', ...REPORT_ARGS, '--json'], dir.path);
    expect(local.code).toBe(0);
    expect(inAddressOrder(sent[2]!.memory_analysis)).toEqual(
      inAddressOrder(JSON.parse(local.stdout) as MemoryReport),
    );
    expect(sent[0]!.memory_analysis.memory_layout.RAM!.used_size).toBe(260);
    // The user's checkout was not used for onboarding: only the local build above wrote to it.
    expect(git(dir.path, 'status', '--porcelain')).toBe('?? .gitignore');
  });
});
