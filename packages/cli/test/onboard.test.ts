import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UploadEnvelope } from '@memtrail/contracts';
import {
  cleanEnv,
  git,
  json,
  makeRepo,
  recordingServer,
  run,
  successBody,
  tempDir,
  type RecordingServer,
} from './support.js';

/** The "build": fails where build.sh says so, and never leaves an ELF behind in these commits. */
describe('memtrail onboard', () => {
  const dir = tempDir();
  const worktrees = tempDir('memtrail-wt-');
  const shas: string[] = [];
  let server: RecordingServer | undefined;
  const env = cleanEnv({ MEMTRAIL_API_KEY: 'k' });
  const base = (url: string) => [
    '--build',
    'sh build.sh',
    '--elf',
    'out/fw.elf',
    '--target-name',
    'board',
    '--api-url',
    url,
    '--worktree-dir',
    join(worktrees.path, 'wt'),
  ];
  // Uploads only: onboarding also asks the server's summary whether a commit is uploaded.
  const posts = () => server!.requests.filter((r) => r.method === 'POST');
  const envelopes = () => posts().map((r) => r.json as UploadEnvelope);
  /** Answers uploads with `upload`, and summaries with 404: the server has none of them. */
  const uploads = (upload: () => ReturnType<typeof json>) => (request: { method: string }) =>
    request.method === 'GET' ? json(404, { success: false, error: 'not found' }) : upload();

  beforeAll(() => {
    const repo = makeRepo(dir.path);
    for (let i = 0; i < 7; i++) {
      shas.push(
        repo.commit(`commit ${i}`, {
          'build.sh': i === 3 ? 'exit 3\n' : 'echo building; true\n',
          [`src/f${i}.c`]: `int f${i};`,
        }),
      );
    }
    git(dir.path, 'remote', 'add', 'origin', 'git@github.com:example/board-fw.git');
    // The user's own uncommitted work, which onboarding must leave alone.
    writeFileSync(join(dir.path, 'src', 'f6.c'), 'int f6 = 1; /* local edit */');
    writeFileSync(join(dir.path, 'notes.txt'), 'untracked');
  });
  afterAll(async () => {
    await server?.close();
    dir.cleanup();
    worktrees.cleanup();
  });

  it('uploads the last N first-parent commits oldest first, chained to their parents', async () => {
    const statusBefore = git(dir.path, 'status', '--porcelain');
    server = await recordingServer(uploads(() => json(200, successBody())));
    const result = await run(['onboard', '6', ...base(server.url)], dir.path, env);
    expect(result.code).toBe(0);
    const sent = envelopes();
    expect(sent.map((e) => e.metadata.git.commit_hash)).toEqual(shas.slice(1));
    expect(sent.map((e) => e.metadata.git.base_commit_hash)).toEqual(shas.slice(0, 6));
    expect(sent[0]!.metadata.git).toMatchObject({
      branch_name: 'main',
      repository: 'example/board-fw',
      commit_message: 'commit 1',
      pr_number: null,
    });
    // No ELF is ever produced, so every commit is a failed build; commit 3's script even exits 3.
    expect(
      sent.every((e) => e.metadata.build_failed === true && e.metadata.identical === false),
    ).toBe(true);
    expect(sent[0]!.memory_analysis).toMatchObject({
      file_path: 'out/fw.elf',
      file_type: 'unknown',
      memory_layout: {},
    });
    expect(result.stderr).toContain(`${shas[3]!.slice(0, 7)}: the build failed (exit code 3)`);
    expect(result.stderr).toContain(
      `${shas[1]!.slice(0, 7)}: the build did not produce out/fw.elf`,
    );
    expect(result.stderr).toMatch(/\[6\/6\] [0-9a-f]{7} uploaded build failed/);
    expect(result.stderr).toMatch(
      /Onboarding board: processed 6 commits in .*: uploaded 6 \(0 built, 0 identical, 6 build failed\), 0 already uploaded/,
    );
    // The user's checkout is untouched and the worktree is gone.
    expect(git(dir.path, 'rev-parse', 'HEAD')).toBe(shas[6]);
    expect(git(dir.path, 'status', '--porcelain')).toBe(statusBefore);
    expect(git(dir.path, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(existsSync(join(worktrees.path, 'wt'))).toBe(false);
  });

  it('skips commits already uploaded, and --restart uploads them again', async () => {
    await server!.close();
    server = await recordingServer(uploads(() => json(200, successBody())));
    const again = await run(['onboard', '6', ...base(server.url)], dir.path, env);
    // A different server URL is a different record: everything is uploaded there.
    expect(again.code).toBe(0);
    expect(posts()).toHaveLength(6);
    const resumed = await run(['onboard', '6', ...base(server.url)], dir.path, env);
    expect(resumed.code).toBe(0);
    expect(posts()).toHaveLength(6);
    expect(resumed.stderr).toContain(
      'uploaded 0 (0 built, 0 identical, 0 build failed), 6 already uploaded',
    );
    const restarted = await run(['onboard', '6', ...base(server.url), '--restart'], dir.path, env);
    expect(restarted.code).toBe(0);
    expect(posts()).toHaveLength(12);
  });

  it('stops at the first failed upload and resumes after it', async () => {
    await server!.close();
    let count = 0;
    server = await recordingServer(
      uploads(() =>
        ++count === 4
          ? json(400, { success: false, error: 'rejected', type: 'ValidationError' })
          : json(200, successBody()),
      ),
    );
    const interrupted = await run(['onboard', '6', ...base(server.url)], dir.path, env);
    expect(interrupted.code).toBe(1);
    expect(interrupted.stderr).toContain(
      `upload of ${shas[4]} failed, stopping (run again to resume)`,
    );
    expect(interrupted.stderr).toContain('Error: rejected');
    expect(posts()).toHaveLength(4);
    const resumed = await run(['onboard', '6', ...base(server.url)], dir.path, env);
    expect(resumed.code).toBe(0);
    expect(
      envelopes()
        .slice(4)
        .map((e) => e.metadata.git.commit_hash),
    ).toEqual(shas.slice(4));
    expect(resumed.stderr).toContain('3 already uploaded');
    const stateDir = join(dir.path, '.git', 'memtrail');
    // One record per server this target was onboarded to.
    expect(readdirSync(stateDir).filter((f) => f.startsWith('onboard-board-'))).toHaveLength(3);
  });

  it('chains an explicit --commits list, the first with no parent or --initial-parent', async () => {
    await server!.close();
    server = await recordingServer(uploads(() => json(200, successBody())));
    const list = `${shas[2]} ${shas[4]}`;
    expect(
      (await run(['onboard', '--commits', list, ...base(server.url), '--restart'], dir.path, env))
        .code,
    ).toBe(0);
    let sent = envelopes();
    expect(sent.map((e) => [e.metadata.git.commit_hash, e.metadata.git.base_commit_hash])).toEqual([
      [shas[2], null],
      [shas[4], shas[2]],
    ]);
    expect(sent[0]!.metadata.git.parent_commit_hash).toBeNull();
    expect('parent_commit_hash' in sent[1]!.metadata.git).toBe(false);
    expect(
      (
        await run(
          [
            'onboard',
            '--commits',
            shas[5]!,
            '--initial-parent',
            shas[4]!,
            ...base(server.url),
            '--restart',
          ],
          dir.path,
          env,
        )
      ).code,
    ).toBe(0);
    sent = envelopes();
    expect(sent.at(-1)!.metadata.git.base_commit_hash).toBe(shas[4]);
  });

  it('starts at --initial-commit and validates its arguments', async () => {
    expect(
      (
        await run(
          ['onboard', '2', ...base(server!.url), '--initial-commit', shas[1]!, '--restart'],
          dir.path,
          env,
        )
      ).code,
    ).toBe(0);
    expect(
      envelopes()
        .slice(-2)
        .map((e) => e.metadata.git.commit_hash),
    ).toEqual([shas[1], shas[2]]);
    expect((await run(['onboard', ...base(server!.url)], dir.path, env)).code).toBe(2);
    expect(
      (await run(['onboard', '2', '--commits', 'HEAD', ...base(server!.url)], dir.path, env)).code,
    ).toBe(2);
    expect((await run(['onboard', '0', ...base(server!.url)], dir.path, env)).code).toBe(2);
    const bad = await run(
      ['onboard', '--commits', 'no-such-ref', ...base(server!.url)],
      dir.path,
      env,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("'no-such-ref' is not a commit");
  });
});
