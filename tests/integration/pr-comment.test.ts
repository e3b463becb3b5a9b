/**
 * Pull/merge request feedback end to end: the built `memtrail` CLI, as real processes, uploads
 * firmware compiled here by arm-none-eabi-gcc to the gateway, then `memtrail comment` reads the
 * gateway's /summary and keeps one sticky comment and a status per target on local stand-ins of
 * the GitHub and GitLab REST APIs — also when several targets' jobs finish at once.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import {
  createIsolatedStores,
  GithubStandIn,
  GitlabStandIn,
  type IsolatedStores,
} from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import {
  buildCli,
  cli,
  startGateway,
  type CliResult,
  type Env,
} from './support/cli-and-gateway.js';
import { ELF, firmwareFiles, SCRIPT, SCRIPT_DIR } from '../../packages/cli/test/firmware.js';
import { cleanEnv, makeRepo, tempDir } from '../../packages/cli/test/support.js';

const MARKER = '<!-- memtrail-pr-comment -->';
const REPO = 'acme/firmware';

function ok(result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`CLI failed (${result.code}):\n${result.stderr}`);
  return result;
}

describe('memtrail comment → gateway /summary → GitHub and GitLab stand-ins', () => {
  const repo = tempDir('memtrail-pr-');
  const work = tempDir('memtrail-pr-ci-');
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let gateway: INestApplication;
  let github: GithubStandIn;
  let enterprise: GithubStandIn;
  let gitlab: GitlabStandIn;
  let memtrail: Env;
  let projectId: string;
  const sha: Record<string, string> = {};

  /** Uploads the checked-out commit's build for `target`, in the CI environment `env`. */
  const upload = (target: string, env: Env, ...extra: string[]) =>
    cli(
      ['upload', ELF, SCRIPT, '-L', SCRIPT_DIR, '--target-name', target, ...extra],
      repo.path,
      env,
    );

  function checkout(name: string): void {
    execFileSync('git', ['checkout', '-q', sha[name]!], { cwd: repo.path });
    execFileSync('sh', ['build.sh'], { cwd: repo.path, stdio: 'pipe' });
  }

  /** A GitHub Actions pull_request run of PR `number` at `head`, as the runner lays it out. */
  function githubPullRequestEnv(
    number: number,
    head: string,
    apiUrl: string,
    extra: Env = {},
  ): Env {
    const event = join(work.path, `event-${number}-${head.slice(0, 7)}.json`);
    writeFileSync(
      event,
      JSON.stringify({
        pull_request: {
          number,
          title: 'Bigger buffer',
          user: { login: 'ada' },
          head: { sha: head, ref: 'feature/buffer', repo: { full_name: REPO } },
          base: { sha: sha.base, ref: 'main', repo: { full_name: REPO } },
        },
      }),
    );
    return {
      ...memtrail,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_REPOSITORY: REPO,
      GITHUB_SHA: 'f'.repeat(40),
      GITHUB_REF_NAME: `${number}/merge`,
      GITHUB_HEAD_REF: 'feature/buffer',
      GITHUB_API_URL: apiUrl,
      GITHUB_TOKEN: 'ghs_writer',
      ...extra,
    };
  }

  beforeAll(async () => {
    buildCli();
    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'ci@example.com' } });
    const created = await createProjectWithKey(prisma, owner.id, 'Board');
    projectId = created.projectId;
    gateway = await startGateway(stores);
    memtrail = cleanEnv({
      MEMTRAIL_API_KEY: created.apiKey,
      MEMTRAIL_API_URL: await gateway.getUrl(),
    });
    github = await GithubStandIn.start();
    enterprise = await GithubStandIn.start({ enterprise: true });
    gitlab = await GitlabStandIn.start();
    for (const host of [github, enterprise]) {
      host.token('ghs_writer', { login: 'github-actions[bot]', write: true });
      host.token('ghs_reader', { login: 'github-actions[bot]', write: false });
      host.repository(REPO);
    }

    const { commit } = makeRepo(repo.path);
    writeFileSync(join(repo.path, '.gitignore'), 'out/\n');
    sha.base = commit('firmware', firmwareFiles());
    sha.head1 = commit('bigger buffer', firmwareFiles({ bufferSize: 512 }));
    sha.head2 = commit('feature', firmwareFiles({ bufferSize: 512, withFeature: true }));
    checkout('base');
    for (const target of ['board-a', 'board-b', 'board-c', 'board-d']) {
      ok(await upload(target, { ...memtrail, MEMTRAIL_BRANCH_NAME: 'main' }));
    }
    // board-b's RAM budget sits between the base's and the pull request's usage.
    const ram = (
      await prisma.report.findFirstOrThrow({
        where: { target: { name: 'board-b' }, commit: { sha: sha.base } },
      })
    ).regionTotals as Record<string, { used_size: number }>;
    const boardB = await prisma.target.findFirstOrThrow({ where: { name: 'board-b' } });
    await prisma.budget.create({
      data: { targetId: boardB.id, name: 'RAM budget', limits: { RAM: ram.RAM!.used_size + 100 } },
    });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([github?.close(), enterprise?.close(), gitlab?.close()]);
    await gateway?.close();
    await prisma?.$disconnect();
    await stores?.cleanup();
    repo.cleanup();
    work.cleanup();
  });

  it('creates one comment, then updates it on every push, and sets a status per target', async () => {
    github.pull(REPO, {
      number: 7,
      state: 'open',
      headSha: sha.head1!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    const stepSummary = join(work.path, 'step-summary.md');
    writeFileSync(stepSummary, '');
    checkout('head1');
    const env = githubPullRequestEnv(7, sha.head1!, github.apiUrl, {
      GITHUB_STEP_SUMMARY: stepSummary,
    });
    ok(await upload('board-a', env));
    const first = ok(await cli(['comment'], repo.path, env));
    expect(first.stderr).toContain('Created the Memtrail comment on pull request #7');

    const [comment] = github.comments(REPO, 7);
    expect(github.comments(REPO, 7)).toHaveLength(1);
    expect(comment!.body.startsWith(MARKER)).toBe(true);
    // The buffer grew by 256 bytes: RAM and .bss say so, and the symbol table names it.
    expect(comment!.body).toContain('| **RAM** |');
    expect(comment!.body).toMatch(/\| \*\*RAM\*\* \| [\d.]+ [KB ]+\| \+256 B \|/);
    expect(comment!.body).toContain('| ↳ `.bss` |');
    expect(comment!.body).toMatch(/\| grown \| `buffer` \| \.bss \| 256 B \| 512 B \| \+256 B \|/);
    expect(comment!.body).toContain(
      `(https://memtrail.example/project/${projectId}/target/board-a/compare?base=${sha.base}&head=${sha.head1})`,
    );
    expect(github.statuses(REPO, sha.head1!)).toEqual([
      expect.objectContaining({
        state: 'success',
        context: 'memtrail/board-a',
        target_url: expect.stringContaining('/target/board-a/compare?'),
      }),
    ]);
    expect(github.statuses(REPO, sha.head1!)[0]!.description).toMatch(/RAM [\d.]+% \(\+256 B\)/);
    expect(readFileSync(stepSummary, 'utf8')).toContain('### board-a');

    // Running again changes nothing.
    const again = ok(await cli(['comment'], repo.path, env));
    expect(again.stderr).toContain(
      `Kept the Memtrail comment on pull request #7 (comment ${comment!.id})`,
    );

    // A new push: the pull request's head moves, and the same comment is updated.
    github.pull(REPO, {
      number: 7,
      state: 'open',
      headSha: sha.head2!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    checkout('head2');
    const env2 = githubPullRequestEnv(7, sha.head2!, github.apiUrl);
    ok(await upload('board-a', env2));
    const second = ok(await cli(['comment'], repo.path, env2));
    expect(second.stderr).toContain(
      `Updated the Memtrail comment on pull request #7 (comment ${comment!.id})`,
    );
    expect(github.comments(REPO, 7)).toHaveLength(1);
    expect(github.comments(REPO, 7)[0]!.body).toContain(`head=${sha.head2}`);
    expect(github.comments(REPO, 7)[0]!.body).toMatch(
      /\| grown \| `main` \| \.text \| \d+ B \| \d+ B \| \+\d+ B \|/,
    );

    // A late job of the previous push leaves the newer comment alone.
    const late = ok(await cli(['comment'], repo.path, env));
    expect(late.stderr).toContain(
      `No comment on pull request #7: pull request #7 has moved on to ${sha.head2!.slice(0, 7)}`,
    );
    expect(github.comments(REPO, 7)[0]!.body).toContain(`head=${sha.head2}`);
  });

  it('keeps one comment with every target when several targets finish at once', async () => {
    github.pull(REPO, {
      number: 8,
      state: 'open',
      headSha: sha.head1!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    checkout('head1');
    const targets = ['board-a', 'board-b', 'board-c', 'board-d'];
    // Every job reads the (empty) comment list before any job writes: all of them create one.
    github.holdCommentLists(targets.length);
    const before = github.log.length;
    const env = githubPullRequestEnv(8, sha.head1!, github.apiUrl);
    const results = await Promise.all(
      targets.map(async (target) => {
        ok(await upload(target, env, '--dont-fail-on-alerts'));
        return ok(await cli(['comment', '--target', target], repo.path, env));
      }),
    );
    const requests = github.log.slice(before);
    expect(requests.filter((r) => r === `POST /repos/${REPO}/issues/8/comments`)).toHaveLength(4);

    const comments = github.comments(REPO, 8);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    // Four targets are folded under an overview; the exceeded budget keeps board-b open.
    expect(body).toContain('| Target | Regions | Budgets |');
    for (const target of targets) expect(body).toContain(`<b>${target}</b>`);
    expect(body).toContain(
      '<details open><summary><b>board-b</b> — :warning: 1 budget(s) exceeded',
    );
    expect(body).toMatch(/- RAM budget: RAM \d+ B used, limit \d+ B \(\+156 B\)/);
    for (const result of results)
      expect(result.stderr).toMatch(/the Memtrail comment on pull request #8/);

    const statuses = github.statuses(REPO, sha.head1!);
    expect(statuses.find((s) => s.context === 'memtrail/board-b')).toMatchObject({
      state: 'failure',
      description: expect.stringMatching(/^Budget exceeded: RAM budget: RAM \d+ B used/),
    });
    expect(statuses.filter((s) => s.context === 'memtrail/board-c')).toEqual([
      expect.objectContaining({ state: 'success' }),
    ]);
  });

  it('removes a duplicate left behind by an interrupted run, keeping the oldest', async () => {
    github.pull(REPO, {
      number: 11,
      state: 'open',
      headSha: sha.head1!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    const oldest = github.seedComment(REPO, 11, `${MARKER}\nstale`);
    github.seedComment(REPO, 11, 'an unrelated review comment');
    const duplicate = github.seedComment(REPO, 11, `${MARKER}\nstale too`);
    const result = ok(
      await cli(['comment', sha.head1!, '--pr', '11'], repo.path, {
        ...githubPullRequestEnv(11, sha.head1!, github.apiUrl),
      }),
    );
    expect(result.stderr).toContain(
      `Updated the Memtrail comment on pull request #11 (comment ${oldest.id})`,
    );
    const ids = github.comments(REPO, 11).map((c) => c.id);
    expect(ids).toContain(oldest.id);
    expect(ids).not.toContain(duplicate.id);
    expect(github.comments(REPO, 11).some((c) => c.body === 'an unrelated review comment')).toBe(
      true,
    );
  });

  it('writes check runs on GitHub Enterprise, updating the one of each target in place', async () => {
    enterprise.pull(REPO, {
      number: 3,
      state: 'open',
      headSha: sha.head1!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    const env = githubPullRequestEnv(3, sha.head1!, enterprise.apiUrl);
    for (let run = 0; run < 2; run++) {
      ok(await cli(['comment', '--status', 'check', '--target', 'board-b'], repo.path, env));
    }
    expect(enterprise.log.every((line) => line.includes('/api/v3/repos/'))).toBe(true);
    const runs = enterprise.checkRuns(REPO, sha.head1!);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      name: 'memtrail/board-b',
      status: 'completed',
      conclusion: 'failure',
      output: { title: expect.stringMatching(/^Budget exceeded/) },
    });
    expect(runs[0]!.output!.summary).toContain('### board-b');
    expect(enterprise.comments(REPO, 3)).toHaveLength(1);
  });

  it('finds the fork pull request of a workflow_run by its head and comments there', async () => {
    github.pull(REPO, {
      number: 21,
      state: 'open',
      headSha: sha.head2!,
      headRef: 'main',
      headOwner: 'contributor',
    });
    const event = join(work.path, 'workflow-run.json');
    writeFileSync(
      event,
      JSON.stringify({
        workflow_run: {
          head_sha: sha.head2,
          head_branch: 'main',
          head_repository: { full_name: 'contributor/firmware', owner: { login: 'contributor' } },
          pull_requests: [],
        },
      }),
    );
    const result = ok(
      await cli(['comment'], repo.path, {
        ...memtrail,
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: REPO,
        GITHUB_SHA: sha.base,
        GITHUB_API_URL: github.apiUrl,
        GITHUB_TOKEN: 'ghs_writer',
      }),
    );
    expect(result.stderr).toContain('Created the Memtrail comment on pull request #21');
  });

  it('says in one line why a read-only token cannot comment', async () => {
    github.pull(REPO, {
      number: 30,
      state: 'open',
      headSha: sha.head2!,
      headRef: 'feature/buffer',
      headOwner: 'acme',
    });
    const result = await cli(
      ['comment', '--pr', '30'],
      repo.path,
      githubPullRequestEnv(30, sha.head2!, github.apiUrl, { GITHUB_TOKEN: 'ghs_reader' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `ERROR: POST ${github.apiUrl}/repos/${REPO}/issues/30/comments: 403 Forbidden (Resource not accessible by integration)`,
    ]);
  });

  it('keeps one merge-request note on GitLab, with statuses, also for concurrent jobs', async () => {
    gitlab.token('glpat-project', { username: 'project_bot', kind: 'private', write: true });
    gitlab.token('job-read-only', { username: 'ci', kind: 'job', write: false });
    gitlab.project(42, 'acme/firmware');
    gitlab.mergeRequest(42, 5, sha.head1!);
    gitlab.addNote(42, 5, 'added 1 commit', { system: true });
    const env: Env = {
      ...memtrail,
      GITLAB_CI: 'true',
      CI_API_V4_URL: gitlab.apiUrl,
      CI_PROJECT_ID: '42',
      CI_PROJECT_PATH: 'acme/firmware',
      CI_COMMIT_SHA: sha.head1,
      CI_MERGE_REQUEST_IID: '5',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: sha.base,
      CI_COMMIT_REF_NAME: 'feature/buffer',
      MEMTRAIL_GITLAB_TOKEN: 'glpat-project',
    };
    checkout('head1');
    gitlab.holdNoteLists(3);
    await Promise.all(
      ['board-a', 'board-b', 'board-c'].map((target) =>
        cli(['comment', '--target', target], repo.path, env).then(ok),
      ),
    );
    const notes = gitlab.notes(42, 5).filter((n) => n.body.includes(MARKER));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain('<b>board-c</b>');
    expect(
      gitlab.statuses(42, sha.head1!).find((s) => s.name === 'memtrail/board-b'),
    ).toMatchObject({
      status: 'failed',
    });
    // Again: the note is kept and re-posting a status it already has is not an error.
    const again = ok(await cli(['comment'], repo.path, env));
    expect(again.stderr).toContain(
      `Kept the Memtrail comment on merge request !5 (comment ${notes[0]!.id})`,
    );

    const refused = await cli(['comment'], repo.path, {
      ...env,
      MEMTRAIL_GITLAB_TOKEN: undefined,
      CI_JOB_TOKEN: 'job-read-only',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'this GitLab does not let CI_JOB_TOKEN write merge-request notes or statuses; set MEMTRAIL_GITLAB_TOKEN',
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the Markdown for other systems with --provider print', async () => {
    const result = ok(
      await cli(
        ['comment', sha.head2!, '--provider', 'print', '--max-symbols', '1'],
        repo.path,
        memtrail,
      ),
    );
    expect(result.stdout.startsWith(MARKER)).toBe(true);
    expect(result.stdout).toContain('…and 1 more symbol changes in the comparison.');
    expect(result.stdout.match(/^\| (added|removed|grown|shrunk|moved) \|/gm)).toHaveLength(1);
  });
});
