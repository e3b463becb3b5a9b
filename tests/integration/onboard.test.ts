/**
 * Onboarding from CI with real git repositories made here and real firmware builds
 * (arm-none-eabi-gcc), uploaded by the built CLI to the real gateway: only the submodules the
 * checkout initialised (nothing fetched), a binary search that builds O(log n) commits, resuming
 * from what the server has after the job that started was cancelled, and one-line failures.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { createIsolatedStores, eventually, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { buildCli, cli, CLI_BIN, startGateway, type Env } from './support/cli-and-gateway.js';
import {
  buildFirmwareProject,
  ELF,
  firmwareFiles,
  SCRIPT,
  SCRIPT_DIR,
  sectionSizes,
} from '../../packages/cli/test/firmware.js';
import { cleanEnv, git, makeRepo, tempDir } from '../../packages/cli/test/support.js';

const onboardArgs = (target: string) => [
  '--build',
  'sh build.sh',
  '--elf',
  ELF,
  '--ld',
  SCRIPT,
  '-L',
  SCRIPT_DIR,
  '--target-name',
  target,
];

describe('memtrail onboard with real repositories and builds', () => {
  const dirs = tempDir('memtrail-onboard-');
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let gateway: INestApplication;
  let env: Env;

  const reports = (target: string) =>
    prisma.report.findMany({
      where: { target: { name: target } },
      select: { kind: true, parentSha: true, commit: { select: { sha: true } } },
    });

  beforeAll(async () => {
    buildCli();
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'ci@example.com' } });
    const { apiKey } = await createProjectWithKey(prisma, owner.id, 'Board');
    gateway = await startGateway(stores);
    env = cleanEnv({ MEMTRAIL_API_KEY: apiKey, MEMTRAIL_API_URL: await gateway.getUrl() });
  }, 240_000);

  afterAll(async () => {
    await gateway?.close();
    await prisma?.$disconnect();
    await stores?.cleanup();
    dirs.cleanup();
  });

  it('initialises only the submodules the checkout has, from its own objects, fetching nothing', async () => {
    // A library repository, used as a submodule and initialised; an optional one never is.
    const library = join(dirs.path, 'library');
    mkdirSync(library);
    makeRepo(library).commit('library', { VERSION: '1.0\n' });
    const project = join(dirs.path, 'project');
    mkdirSync(project);
    const { commit } = makeRepo(project);
    const build = `test -f lib/used/VERSION || { echo "lib/used is not checked out"; exit 7; }\n${firmwareFiles()['build.sh']}`;
    commit('firmware', { ...firmwareFiles(), 'build.sh': build, '.gitignore': 'out/\n' });
    git(project, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'lib/used');
    // Registered but never initialised here, with a URL nothing can be fetched from.
    git(project, 'config', '-f', '.gitmodules', 'submodule.lib/optional.path', 'lib/optional');
    git(
      project,
      'config',
      '-f',
      '.gitmodules',
      'submodule.lib/optional.url',
      join(dirs.path, 'no-such-host', 'optional.git'),
    );
    const optionalSha = git(library, 'rev-parse', 'HEAD');
    git(project, 'update-index', '--add', '--cacheinfo', `160000,${optionalSha},lib/optional`);
    commit('optional submodule', {});
    const head = commit('bigger buffer', {
      ...firmwareFiles({ bufferSize: 512 }),
      'build.sh': build,
    });
    // The library's origin disappears: anything fetched from a URL would now fail.
    renameSync(library, `${library}-gone`);

    const worktree = join(dirs.path, 'worktree');
    const result = await cli(
      ['onboard', '2', ...onboardArgs('sub-active'), '--worktree-dir', worktree, '--keep-worktree'],
      project,
      env,
    );
    expect(result.stderr).not.toContain('ERROR');
    expect(result.code).toBe(0);
    // The worktree's copy borrows the checkout's objects instead of holding (or fetching) its own.
    const alternates = git(
      join(worktree, 'lib', 'used'),
      'rev-parse',
      '--path-format=absolute',
      '--git-path',
      'objects/info/alternates',
    );
    expect(readFileSync(alternates, 'utf8').trim()).toBe(
      join(
        git(project, 'rev-parse', '--path-format=absolute', '--git-common-dir'),
        'modules',
        'lib',
        'used',
        'objects',
      ),
    );
    expect(existsSync(join(worktree, 'lib', 'optional', 'VERSION'))).toBe(false);
    git(project, 'worktree', 'remove', '--force', worktree);
    const uploaded = await reports('sub-active');
    expect(uploaded.map((r) => r.kind)).toEqual(['full', 'full']);
    expect(uploaded.map((r) => r.commit.sha)).toContain(head);

    const none = await cli(
      ['onboard', '1', ...onboardArgs('sub-none'), '--submodules', 'none'],
      project,
      env,
    );
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('lib/used is not checked out');
    expect((await reports('sub-none')).map((r) => r.kind)).toEqual(['build_failed']);

    const all = await cli(
      ['onboard', '1', ...onboardArgs('sub-all'), '--submodules', 'all'],
      project,
      env,
    );
    expect(all.code).toBe(1);
    const lines = all.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('ERROR'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ERROR: cannot check out [0-9a-f]{7} for building: (fatal|error): /);
    expect(all.stderr).not.toMatch(/\n\s+at /);
  });

  it('binary-searches where RAM jumped, building O(log n) commits, and uploads them linked', async () => {
    const repo = join(dirs.path, 'bisect');
    mkdirSync(repo);
    const { commit } = makeRepo(repo);
    const shas: string[] = [];
    for (let i = 0; i < 12; i++) {
      const files = firmwareFiles({ bufferSize: i < 7 ? 256 : 4096 });
      shas.push(commit(`change ${i}`, { ...files, '.gitignore': 'out/\n', NOTES: `note ${i}\n` }));
    }
    const result = await cli(
      ['onboard', '--binary-search', '--initial-commit', shas[0]!, ...onboardArgs('bisect')],
      repo,
      env,
    );
    expect(result.stderr).not.toContain('ERROR');
    expect(result.code).toBe(0);
    // Ground truth from binutils: the .bss of the two commits' builds.
    const before = sectionSizes(
      buildFirmwareProject(join(dirs.path, 'gt-before'), { bufferSize: 256 }),
    );
    const after = sectionSizes(
      buildFirmwareProject(join(dirs.path, 'gt-after'), { bufferSize: 4096 }),
    );
    const change = after.get('.bss')! - before.get('.bss')!;
    expect(result.stdout).toBe(
      `RAM grew by ${change} B at ${shas[7]} ("change 7"), after ${shas[6]}\n`,
    );
    const uploaded = await reports('bisect');
    expect(uploaded.length).toBeLessThanOrEqual(Math.ceil(Math.log2(12)) + 2);
    // Every uploaded commit is linked to the uploaded one before it, in history order.
    const order = uploaded.map((r) => shas.indexOf(r.commit.sha)).sort((a, b) => a - b);
    const parentOf = new Map(uploaded.map((r) => [r.commit.sha, r.parentSha]));
    for (let i = 1; i < order.length; i++) {
      expect(parentOf.get(shas[order[i]!]!)).toBe(shas[order[i - 1]!]);
    }
    expect(order).toEqual(expect.arrayContaining([0, 6, 7, 11]));
  });

  it('resumes in a fresh checkout from what the server has, after a cancelled job', async () => {
    const origin = join(dirs.path, 'origin');
    mkdirSync(origin);
    const { commit } = makeRepo(origin);
    // The build of the third commit hangs in the first job until the job is cancelled.
    const hang = `if [ -n "$HANG_ON" ] && grep -qx "$HANG_ON" NOTES; then touch "$HANG_MARKER"; sleep 600; fi\n`;
    const shas: string[] = [];
    for (let i = 0; i < 4; i++) {
      const files = firmwareFiles({ bufferSize: 256 + 64 * i });
      shas.push(
        commit(`commit ${i}`, {
          ...files,
          'build.sh': hang + files['build.sh']!,
          NOTES: `commit ${i}\n`,
          '.gitignore': 'out/\n',
        }),
      );
    }
    const first = join(dirs.path, 'job-1');
    git(dirs.path, 'clone', '-q', origin, first);
    const marker = join(dirs.path, 'hanging');
    const job = spawn(
      process.execPath,
      [
        CLI_BIN,
        'onboard',
        '4',
        ...onboardArgs('resume'),
        // Inside the test's directory: the killed job cannot remove its worktree.
        '--worktree-dir',
        join(dirs.path, 'job-1-worktree'),
      ],
      {
        cwd: first,
        env: { ...env, HANG_ON: 'commit 2', HANG_MARKER: marker },
        detached: true,
        stdio: 'ignore',
      },
    );
    const ended = new Promise((resolve) => job.on('close', resolve));
    await eventually(
      () => Promise.resolve(existsSync(marker)),
      (there) => there,
      { timeoutMs: 60_000 },
    );
    // Cancelled as a CI runner does: the whole process group, build included.
    process.kill(-job.pid!, 'SIGKILL');
    await ended;
    expect((await reports('resume')).map((r) => r.commit.sha).sort()).toEqual(
      shas.slice(0, 2).sort(),
    );

    // A new job has a fresh checkout without the first one's record: the server's is enough.
    const second = join(dirs.path, 'job-2');
    git(dirs.path, 'clone', '-q', origin, second);
    const resumed = await cli(['onboard', '4', ...onboardArgs('resume')], second, env);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      'uploaded 2 (2 built, 0 identical, 0 build failed), 2 already uploaded',
    );
    expect((await reports('resume')).map((r) => r.commit.sha).sort()).toEqual([...shas].sort());
  });

  it('reports git and upload failures in one line, never a stack trace', async () => {
    const repo = join(dirs.path, 'bisect');
    const badRef = await cli(
      ['onboard', '2', ...onboardArgs('x'), '--initial-commit', 'no-such-ref'],
      repo,
      env,
    );
    expect(badRef.code).toBe(1);
    expect(badRef.stderr).toBe(
      "ERROR: cannot list the commits to onboard: 'no-such-ref' is not a commit in " + repo + '\n',
    );
    const badKey = await cli(['onboard', '1', ...onboardArgs('y'), '--restart'], repo, {
      ...env,
      MEMTRAIL_API_KEY: 'mt_invalid',
    });
    expect(badKey.code).toBe(1);
    const errors = badKey.stderr.split('\n').filter((l) => l.startsWith('ERROR'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^ERROR: upload of [0-9a-f]{40} failed, stopping \(run again to resume\): HTTP error from .*: 401 /,
    );
    expect(badKey.stderr).not.toMatch(/\n\s+at /);
  });
});
