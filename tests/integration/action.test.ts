/**
 * The GitHub Actions of this repository, released and run as GitHub would: action/release.sh
 * bundles the CLI into a tagged commit, the action is cloned at that tag (no node_modules, no
 * registry), and its shell steps run in a simulated Actions job (event payload, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY) against the real gateway and a stand-in of GitHub's API.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createPrismaClient, type PrismaClient } from '@memtrail/db';
import { createIsolatedStores, GithubStandIn, type IsolatedStores } from '@memtrail/testing';
import { createProjectWithKey } from '../../services/gateway/src/api-keys/index.js';
import { ROOT, startGateway } from './support/cli-and-gateway.js';
import { ELF, firmwareFiles, SCRIPT, SCRIPT_DIR } from '../../packages/cli/test/firmware.js';
import { cleanEnv, git, makeRepo, tempDir } from '../../packages/cli/test/support.js';
import { runCompositeAction } from './composite-action.js';
import { ACTION_FILES } from './support/action-sources.js';

const REPO = 'acme/firmware';
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }
).version;

describe('the GitHub Actions, released and run in a simulated job', () => {
  const dirs = tempDir('memtrail-action-');
  const source = join(dirs.path, 'source');
  const released = join(dirs.path, 'released');
  const unreleased = join(dirs.path, 'unreleased');
  const workspace = join(dirs.path, 'workspace');
  let stores: IsolatedStores;
  let prisma: PrismaClient;
  let gateway: INestApplication;
  let github: GithubStandIn;
  let apiKey: string;
  let apiUrl: string;
  const sha: Record<string, string> = {};

  /** A job's environment: the runner's variables for `event` and fresh output files. */
  function job(name: string, event: string, payload: unknown) {
    const eventPath = join(dirs.path, `${name}-event.json`);
    writeFileSync(eventPath, JSON.stringify(payload));
    const summary = join(dirs.path, `${name}-summary.md`);
    writeFileSync(summary, '');
    return {
      summary,
      env: {
        ...cleanEnv(),
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: REPO,
        GITHUB_SHA: 'f'.repeat(40),
        GITHUB_REF_NAME: 'main',
        GITHUB_API_URL: github.apiUrl,
        GITHUB_STEP_SUMMARY: summary,
        RUNNER_TEMP: dirs.path,
      },
    };
  }

  const reportInputs = (target: string) => ({
    elf: ELF,
    ld: SCRIPT,
    library_paths: SCRIPT_DIR,
    target_name: target,
    api_key: apiKey,
    api_url: apiUrl,
  });

  beforeAll(async () => {
    // A repository with this checkout's action and CLI sources, released as GitHub would run it.
    for (const dir of [source, workspace]) mkdirSync(dir);
    const { commit } = makeRepo(source);
    for (const path of ACTION_FILES)
      cpSync(join(ROOT, path), join(source, path), { recursive: true });
    writeFileSync(join(source, '.gitignore'), 'node_modules\npackages/cli/bundle/\n');
    commit('sources', {});
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    execFileSync('bash', ['action/release.sh'], { cwd: source, stdio: 'pipe' });
    execFileSync('git', ['clone', '-q', '--branch', `v${VERSION}`, source, released], {
      stdio: 'pipe',
    });
    execFileSync('git', ['clone', '-q', '--branch', 'main', source, unreleased], { stdio: 'pipe' });

    stores = await createIsolatedStores();
    prisma = createPrismaClient(stores.databaseUrl);
    const owner = await prisma.user.create({ data: { email: 'ci@example.com' } });
    ({ apiKey } = await createProjectWithKey(prisma, owner.id, 'Board'));
    gateway = await startGateway(stores);
    apiUrl = await gateway.getUrl();
    github = await GithubStandIn.start();
    github.token('ghs_job', { login: 'github-actions[bot]', write: true });

    const firmware = makeRepo(workspace);
    writeFileSync(join(workspace, '.gitignore'), 'out/\n');
    sha.base = firmware.commit('firmware', firmwareFiles());
    sha.head = firmware.commit('bigger buffer', firmwareFiles({ bufferSize: 512 }));
    github.pull(REPO, {
      number: 4,
      state: 'open',
      headSha: sha.head,
      headRef: 'grow',
      headOwner: 'acme',
    });
  }, 240_000);

  afterAll(async () => {
    await github?.close();
    await gateway?.close();
    await prisma?.$disconnect();
    await stores?.cleanup();
    dirs.cleanup();
  });

  it('releases a tag whose commit carries the bundle, built from the sources it is on', () => {
    const files = git(source, 'ls-tree', '-r', '--name-only', `v${VERSION}`);
    expect(files).toContain('packages/cli/bundle/memtrail.js');
    expect(git(source, 'ls-tree', '-r', '--name-only', 'main')).not.toContain(
      'packages/cli/bundle',
    );
    expect(git(source, 'rev-parse', `v${VERSION}^{commit}~1`)).toBe(
      git(source, 'rev-parse', 'main'),
    );
    expect(git(source, 'rev-parse', `v${VERSION.split('.')[0]}^{commit}`)).toBe(
      git(source, 'rev-parse', `v${VERSION}^{commit}`),
    );
    expect(existsSync(join(released, 'node_modules'))).toBe(false);
    // A second release of the same version is refused.
    expect(() =>
      execFileSync('bash', ['action/release.sh'], { cwd: source, stdio: 'pipe' }),
    ).toThrow(/v[\d.]+ exists: raise the version/);
  });

  it('refuses clearly at a ref without a bundled CLI', async () => {
    execFileSync('git', ['checkout', '-q', sha.base!], { cwd: workspace });
    const { env } = job('unreleased', 'push', { before: '0'.repeat(40) });
    const run = await runCompositeAction({
      actionPath: unreleased,
      inputs: reportInputs('board'),
      env,
      workspace,
    });
    expect(run.failed).toBe(true);
    expect(run.steps.find((s) => s.id === 'report')!.stdout).toContain(
      '::error title=Memtrail::This ref of the action has no bundled CLI',
    );
  });

  it('uploads on push and on a pull request, then comments, writing outputs and job summaries', async () => {
    execFileSync('git', ['checkout', '-q', sha.base!], { cwd: workspace });
    execFileSync('sh', ['build.sh'], { cwd: workspace, stdio: 'pipe' });
    const push = job('push', 'push', { before: '0'.repeat(40) });
    const pushed = await runCompositeAction({
      actionPath: released,
      inputs: reportInputs('board'),
      env: { ...push.env, GITHUB_SHA: sha.base },
      workspace,
    });
    expect(pushed.failed).toBe(false);
    // Node 20+ is on this machine: actions/setup-node is skipped, as on such a self-hosted runner.
    expect(pushed.steps.map((s) => [s.id ?? 'setup-node', s.skipped])).toEqual([
      ['node', false],
      ['setup-node', true],
      ['report', false],
      ['onboard', true],
    ]);
    const raw = JSON.parse(readFileSync(pushed.outputs.report_path!, 'utf8')) as {
      target_name: string;
      comparison_url: string;
    };
    expect(raw.target_name).toBe('board');
    expect(readFileSync(push.summary, 'utf8')).toMatch(
      new RegExp(`^Uploaded board @ ${sha.base!.slice(0, 7)}: `),
    );

    execFileSync('git', ['checkout', '-q', sha.head!], { cwd: workspace });
    execFileSync('sh', ['build.sh'], { cwd: workspace, stdio: 'pipe' });
    const pr = job('pull-request', 'pull_request', {
      pull_request: {
        number: 4,
        title: 'Grow the buffer',
        head: { sha: sha.head, ref: 'grow', repo: { full_name: REPO } },
        base: { sha: sha.base, ref: 'main', repo: { full_name: REPO } },
      },
    });
    const uploaded = await runCompositeAction({
      actionPath: released,
      inputs: reportInputs('board'),
      env: pr.env,
      workspace,
    });
    expect(uploaded.failed).toBe(false);
    expect(readFileSync(pr.summary, 'utf8')).toContain('RAM +256 B');

    const commented = await runCompositeAction({
      actionPath: join(released, 'comment'),
      inputs: { api_key: apiKey, api_url: apiUrl },
      env: pr.env,
      workspace,
      github: { token: 'ghs_job' },
    });
    expect(commented.failed).toBe(false);
    expect(commented.steps.find((s) => s.id === 'comment')!.stderr).toContain(
      'Created the Memtrail comment on pull request #4',
    );
    const [comment] = github.comments(REPO, 4);
    expect(comment!.body).toContain('| **RAM** |');
    expect(github.statuses(REPO, sha.head!)).toEqual([
      expect.objectContaining({ context: 'memtrail/board', state: 'success' }),
    ]);
    expect(readFileSync(pr.summary, 'utf8')).toContain('## Memtrail memory report');
  });

  it('onboards history through the onboarding inputs', async () => {
    execFileSync('git', ['checkout', '-q', sha.head!], { cwd: workspace });
    const { env } = job('onboard', 'workflow_dispatch', {});
    const run = await runCompositeAction({
      actionPath: released,
      inputs: {
        ...reportInputs('onboarded'),
        num_commits: '2',
        build_script: 'sh build.sh',
      },
      env,
      workspace,
    });
    expect(run.failed).toBe(false);
    expect(run.steps.find((s) => s.id === 'onboard')!.stderr).toContain(
      'uploaded 2 (2 built, 0 identical, 0 build failed)',
    );
    const reports = await prisma.report.findMany({
      where: { target: { name: 'onboarded' } },
      select: { kind: true, commit: { select: { sha: true } } },
    });
    expect(reports.map((r) => [r.commit.sha, r.kind]).sort()).toEqual(
      [
        [sha.base, 'full'],
        [sha.head, 'full'],
      ].sort(),
    );
  });
});
