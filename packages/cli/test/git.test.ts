import { afterAll, describe, expect, it } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectGithub, detectGitlab, isRealSha } from '../src/git/ci.js';
import { repositoryFromRemote } from '../src/git/local.js';
import { detectGit } from '../src/git/metadata.js';
import { cleanEnv, git, makeRepo, tempDir } from './support.js';

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

describe('repositoryFromRemote', () => {
  it.each([
    ['https://github.com/example/sample-fw.git', 'example/sample-fw'],
    ['https://github.com/example/digit.git', 'example/digit'],
    ['https://github.com/example/legit', 'example/legit'],
    ['git@github.com:example/sample-fw.git', 'example/sample-fw'],
    ['ssh://git@gitlab.example.com:2222/group/sub/fw.git', 'group/sub/fw'],
    ['https://user:token@gitlab.com/group/fw.git/', 'group/fw'],
    ['/srv/git/firmware.git', 'firmware'],
    ['file:///srv/git/firmware.git', 'firmware'],
    ['', null],
  ])('%s → %s', (url, expected) => {
    expect(repositoryFromRemote(url)).toBe(expected);
  });
});

describe('local git detection', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it('reads commit, parent, branch, full repository, message, author and tags', async () => {
    const repo = makeRepo(dir.path);
    const first = repo.commit('first', { 'a.c': 'int a;' });
    const second = repo.commit('Add checksum\n\nLonger body line.', { 'b.c': 'int b;' });
    git(dir.path, 'tag', 'v1.0');
    git(dir.path, 'remote', 'add', 'origin', 'git@github.com:example/digit.git');
    const { git: meta } = await detectGit({
      cwd: dir.path,
      env: cleanEnv(),
      explicit: {},
      noParent: false,
      noGit: false,
    });
    expect(meta).toMatchObject({
      commit_hash: second,
      base_commit_hash: first,
      branch_name: 'main',
      repository: 'example/digit',
      commit_message: 'Add checksum\n\nLonger body line.',
      author_name: 'Ada Tester',
      author_email: 'ada@example.test',
      tags: ['v1.0'],
      pr_number: null,
    });
    expect(meta.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it('finds the branch of a detached HEAD and lets flags win; --base-sha none means no parent', async () => {
    const head = git(dir.path, 'rev-parse', 'HEAD');
    git(dir.path, 'checkout', '-q', '--detach', head);
    const { git: meta } = await detectGit({
      cwd: dir.path,
      env: cleanEnv(),
      explicit: { branch_name: 'release', pr_number: '7' },
      noParent: true,
      noGit: false,
    });
    expect(meta.branch_name).toBe('release');
    expect(meta.pr_number).toBe('7');
    expect(meta.base_commit_hash).toBeNull();
    expect('parent_commit_hash' in meta && meta.parent_commit_hash === null).toBe(true);
    git(dir.path, 'checkout', '-q', 'main');
    const detached = await detectGit({
      cwd: dir.path,
      env: cleanEnv(),
      explicit: {},
      noParent: false,
      noGit: false,
    });
    expect(detached.git.branch_name).toBe('main');
  });

  it('re-reads message and parent for an explicit --commit-sha', async () => {
    const first = git(dir.path, 'rev-list', '--max-parents=0', 'HEAD');
    const { git: meta } = await detectGit({
      cwd: dir.path,
      env: cleanEnv(),
      explicit: { commit_hash: first },
      noParent: false,
      noGit: false,
    });
    expect(meta.commit_message).toBe('first');
    expect(meta.base_commit_hash).toBeNull();
  });

  it('sends only explicit keys with --no-git', async () => {
    const { git: meta } = await detectGit({
      cwd: dir.path,
      env: cleanEnv(),
      explicit: { commit_hash: 'abc123', tags: ['v1', 'v2'] },
      noParent: false,
      noGit: true,
    });
    expect(meta).toEqual({ commit_hash: 'abc123', tags: ['v1', 'v2'] });
  });

  it('gives nulls, not placeholders, outside a repository', async () => {
    const outside = tempDir();
    const { git: meta } = await detectGit({
      cwd: outside.path,
      env: cleanEnv(),
      explicit: {},
      noParent: false,
      noGit: false,
    });
    outside.cleanup();
    expect(meta.commit_hash).toBeNull();
    expect(meta.branch_name).toBeNull();
    expect(meta.repository).toBeNull();
    expect(meta.tags).toEqual([]);
  });

  it('uses the generic MEMTRAIL_* variables over local git', async () => {
    const { git: meta } = await detectGit({
      cwd: dir.path,
      env: cleanEnv({
        MEMTRAIL_BRANCH_NAME: 'ci-branch',
        MEMTRAIL_TAGS: 'a,b',
        MEMTRAIL_PR_NUMBER: '9',
      }),
      explicit: {},
      noParent: false,
      noGit: false,
    });
    expect(meta).toMatchObject({ branch_name: 'ci-branch', tags: ['a', 'b'], pr_number: '9' });
  });
});

describe('GitHub Actions detection', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  const event = (name: string, payload: unknown) => {
    const path = join(dir.path, `${name}.json`);
    writeFileSync(path, JSON.stringify(payload));
    return {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: name,
      GITHUB_EVENT_PATH: path,
      GITHUB_SHA: 'f'.repeat(40),
      GITHUB_REF_NAME: 'main',
      GITHUB_REPOSITORY: 'example/sample-fw',
    };
  };

  it('takes the pull request head, base, number, title and author', () => {
    const facts = detectGithub(
      event('pull_request', {
        pull_request: {
          number: 12,
          title: 'Add checksum',
          user: { login: 'contrib' },
          head: { sha: SHA_A, ref: 'feature/checksum' },
          base: { sha: SHA_B },
        },
      }),
    );
    expect(facts.git).toEqual({
      commit_hash: SHA_A,
      branch_name: 'feature/checksum',
      repository: 'example/sample-fw',
      base_commit_hash: SHA_B,
      pr_number: '12',
      pr_name: 'Add checksum',
      pr_author_name: 'contrib',
    });
  });

  it("names a fork's branch owner:branch, so it never passes for this repository's branch", () => {
    const fork = detectGithub(
      event('pull_request', {
        pull_request: {
          number: 13,
          head: { sha: SHA_A, ref: 'main', repo: { full_name: 'contrib/sample-fw' } },
          base: { sha: SHA_B, repo: { full_name: 'example/sample-fw' } },
        },
      }),
    );
    expect(fork.git.branch_name).toBe('contrib:main');
    const run = detectGithub(
      event('workflow_run', {
        workflow_run: {
          head_sha: SHA_A,
          head_branch: 'main',
          head_repository: { full_name: 'contrib/sample-fw', owner: { login: 'contrib' } },
          pull_requests: [],
        },
      }),
    );
    expect(run.git).toMatchObject({ commit_hash: SHA_A, branch_name: 'contrib:main' });
    const same = detectGithub(
      event('workflow_run', {
        workflow_run: {
          head_sha: SHA_A,
          head_branch: 'feat',
          head_repository: { full_name: 'example/sample-fw' },
        },
      }),
    );
    expect(same.git.branch_name).toBe('feat');
  });

  it('uses push `before` only when it is a real commit', () => {
    expect(detectGithub(event('push', { before: SHA_B })).git.base_commit_hash).toBe(SHA_B);
    expect(detectGithub(event('push', { before: ZERO })).git.base_commit_hash).toBeUndefined();
    expect(isRealSha('abc')).toBe(false);
  });

  it('reports workflow_run with the triggering head, not the default-branch tip', () => {
    const facts = detectGithub(
      event('workflow_run', {
        workflow_run: { head_sha: SHA_A, head_branch: 'feat', pull_requests: [{ number: 5 }] },
      }),
    );
    expect(facts.git).toMatchObject({ commit_hash: SHA_A, branch_name: 'feat', pr_number: '5' });
  });

  it('fails with the path when the event payload is unreadable', () => {
    expect(() =>
      detectGithub({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_PATH: join(dir.path, 'missing.json') }),
    ).toThrow(/GITHUB_EVENT_PATH=.*missing\.json/);
  });
});

describe('GitLab CI detection', () => {
  it('reads merge request pipelines', () => {
    const facts = detectGitlab({
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA_A,
      CI_COMMIT_BEFORE_SHA: ZERO,
      CI_COMMIT_REF_NAME: 'feat',
      CI_MERGE_REQUEST_IID: '42',
      CI_MERGE_REQUEST_TITLE: 'Shrink buffers',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA_B,
      CI_PROJECT_PATH: 'group/sub/fw',
      CI_COMMIT_AUTHOR: 'Ada Tester <ada@example.test>',
      GITLAB_USER_LOGIN: 'ada',
    });
    expect(facts.git).toEqual({
      commit_hash: SHA_A,
      base_commit_hash: SHA_B,
      branch_name: 'feat',
      repository: 'group/sub/fw',
      author_name: 'Ada Tester',
      author_email: 'ada@example.test',
      pr_number: '42',
      pr_name: 'Shrink buffers',
      pr_author_name: 'ada',
    });
  });

  it('reads branch pipelines with the previous tip as base and the tag', () => {
    const facts = detectGitlab({
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: SHA_A,
      CI_COMMIT_BEFORE_SHA: SHA_B,
      CI_COMMIT_REF_NAME: 'main',
      CI_COMMIT_TAG: 'v2',
    });
    expect(facts.git).toEqual({
      commit_hash: SHA_A,
      base_commit_hash: SHA_B,
      branch_name: 'main',
      tags: ['v2'],
    });
  });
});
