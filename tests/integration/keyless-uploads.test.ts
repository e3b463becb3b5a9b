import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  oidcAudience,
  type MemoryReport,
  type ProjectWithApiKey,
  type PublicAccessData,
  type UploadEnvelope,
} from '@memtrail/contracts';
import {
  createIsolatedStores,
  GithubStandIn,
  type GithubPull,
  type IsolatedStores,
} from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  type CallResult,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';
import { cleanEnv, makeRepo, tempDir } from '../../packages/cli/test/support.js';
import { ActionsOidcIssuer, type ActionsTokenClaims } from './support/actions-oidc-issuer.js';

const SAMPLE = new URL('../fixtures/membrowse-sample-report.json', import.meta.url);
const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as MemoryReport;
const CLI = join(import.meta.dirname, '..', '..', 'packages', 'cli', 'dist', 'bin.js');

const REPO = 'example/sample-fw';
const REPO_ID = 1_296_269;
const FORK = 'contrib/sample-fw';
const sha = (c: string) => c.repeat(40);
const BASE = sha('a');
const HEAD = sha('b');

type UploadAnswer = {
  success: boolean;
  type?: string;
  error?: string;
  data?: { is_overwritten: boolean; commit_sha: string };
};

/** An upload as the MemBrowse CLI 1.2.9 sends it from a fork's pull_request job. */
function membrowseBody(
  commit: string,
  options: { pr?: number; target?: string; context?: Record<string, unknown> | null } = {},
): UploadEnvelope {
  const pr = options.pr ?? 12;
  const context =
    options.context === null
      ? {}
      : {
          github_context: {
            pr_number: pr,
            fork_repository: FORK,
            repository: REPO,
            commit_sha: commit,
            pr_author: 'contrib',
            branch_name: 'feature/checksum',
            ...options.context,
          },
        };
  return {
    metadata: {
      git: {
        commit_hash: commit,
        base_commit_hash: BASE,
        branch_name: 'feature/checksum',
        repository: 'sample-fw',
        commit_message: 'Shrink the checksum table',
        commit_timestamp: '2026-11-21T09:55:39+00:00',
        author_name: 'Contributor',
        author_email: 'contrib@example.com',
        tags: [],
        pr_number: String(pr),
        pr_name: 'A title the client made up',
        pr_author_name: 'someone-else',
        pr_author_email: null,
      },
      repository: 'sample-fw',
      target_name: options.target ?? 'stm32',
      analysis_version: '1.2.9',
      architecture: 'ARM',
      toolchain: 'gcc',
      identical: false,
      ...context,
    } as UploadEnvelope['metadata'],
    memory_analysis: sample,
  };
}

/** A report of the project's own CI on a branch, for API-key and OIDC uploads. */
const branchBody = (commit: string, branch: string | null, target = 'stm32'): UploadEnvelope => ({
  metadata: {
    git: { commit_hash: commit, base_commit_hash: BASE, branch_name: branch },
    target_name: target,
    identical: false,
  },
  memory_analysis: sample,
});

describe('keyless uploads: tokenless pull requests and GitHub Actions OIDC tokens', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let github: GithubStandIn;
  let issuer: ActionsOidcIssuer;
  let owner: string;
  let project: ProjectWithApiKey;
  let audience: string;

  const tokenless = (body: unknown, url = gw.url) =>
    call<UploadAnswer>(url, 'POST', '/upload', {
      body,
      headers: {
        'x-auth-type': 'github-tokenless',
        'user-agent': 'MemBrowse-Client/1.2.9 (GitHub-Actions)',
      },
    });
  const withBearer = (token: string, body: unknown, url = gw.url) =>
    call<UploadAnswer>(url, 'POST', '/upload', {
      body,
      headers: { authorization: `Bearer ${token}` },
    });
  /** A genuine token of a push to main in the linked repository, unless told otherwise. */
  const oidcToken = (
    claims: Partial<ActionsTokenClaims>,
    aud: string | string[] = audience,
    options: Parameters<ActionsOidcIssuer['token']>[2] = {},
  ) =>
    issuer.token(
      aud,
      {
        repository: REPO,
        repository_id: String(REPO_ID),
        event_name: 'push',
        ref: 'refs/heads/main',
        sha: BASE,
        ...claims,
      },
      options,
    );
  const settings = (body: Record<string, unknown>) =>
    call<{ data: PublicAccessData }>(gw.url, 'PUT', `/api/projects/${project.id}/public-access`, {
      token: owner,
      body,
    });
  const pull = (number: number): GithubPull => github.repository(REPO).pulls.get(number)!;
  /** How many times the gateway asked GitHub for `path`. */
  const asked = (path: string) => github.log.filter((line) => line === `GET ${path}`).length;
  const reportOf = (commit: string, target = 'stm32') =>
    gw.prisma.report.findFirst({
      where: { commit: { projectId: project.id, sha: commit }, target: { name: target } },
    });
  /** Every report row with its version: what a refused upload must leave untouched. */
  const snapshot = async () =>
    (
      await gw.prisma.report.findMany({
        select: { id: true, version: true, branch: true, payloadSha256: true },
        orderBy: { id: 'asc' },
      })
    ).map((r) => JSON.stringify(r));

  /** The upload protocol's error answer, and nothing stored or changed. */
  async function expectRefused(
    attempt: () => Promise<CallResult<UploadAnswer>>,
    status: number,
    message: string | RegExp,
  ): Promise<void> {
    const before = await snapshot();
    const targets = await gw.prisma.target.count();
    const result = await attempt();
    expect({ status: result.status, success: result.body.success }).toEqual({
      status,
      success: false,
    });
    expect(result.body.error).toMatch(message);
    expect(await snapshot()).toEqual(before);
    expect(await gw.prisma.target.count()).toBe(targets);
  }

  beforeAll(async () => {
    stores = await createIsolatedStores();
    github = await GithubStandIn.start();
    issuer = await ActionsOidcIssuer.start();
    github.repository(REPO, { id: REPO_ID, private: false });
    github.pull(REPO, {
      number: 12,
      state: 'open',
      title: 'Shrink the checksum table',
      author: 'contrib',
      headSha: HEAD,
      headRef: 'feature/checksum',
      headOwner: 'contrib',
    });
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      GITHUB_API_URL: github.apiUrl,
      OIDC_ISSUER: issuer.issuer,
    });
    owner = (await signUpOnPrem(gw.url, 'maintainer@example.com')).access_token;
    const created = await call<{ data: { project: ProjectWithApiKey } }>(
      gw.url,
      'POST',
      '/api/projects',
      { token: owner, body: { name: 'Sample firmware' } },
    );
    project = created.body.data.project;
    const linked = await settings({
      repository: 'https://github.com/Example/Sample-FW.git',
      tokenless_uploads: true,
      oidc_uploads: true,
    });
    expect(linked.status).toBe(200);
    expect(linked.body.data.settings).toMatchObject({
      repository: REPO,
      tokenless_uploads: true,
      oidc_uploads: true,
    });
    audience = linked.body.data.oidc_audience;
    expect(audience).toBe(oidcAudience(project.id));
    // The base branch, uploaded by the project's own CI with its key.
    const base = await withBearer(project.api_key, branchBody(BASE, 'main'));
    expect(base.status).toBe(200);
  });

  afterAll(async () => {
    await gw?.close();
    await github?.close();
    await issuer?.close();
    await stores?.cleanup();
  });

  describe('tokenless uploads', () => {
    it("accepts a fork PR's head commit, stored under GitHub's facts about the PR", async () => {
      const accepted = await tokenless(membrowseBody(HEAD));
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({
        success: true,
        data: { commit_sha: HEAD, is_overwritten: false },
      });
      expect(await reportOf(HEAD)).toMatchObject({
        branch: 'contrib:feature/checksum',
        prNumber: '12',
        prName: 'Shrink the checksum table',
        prAuthorName: 'contrib',
        parentSha: BASE,
      });
      const heads = await gw.prisma.head.findMany({ orderBy: { branch: 'asc' } });
      expect(heads.map((h) => [h.branch, h.commitSha])).toEqual([
        ['contrib:feature/checksum', HEAD],
        ['main', BASE],
      ]);
    });

    it('asks GitHub once for a matrix of targets, and again when the head has moved', async () => {
      const target = await gw.prisma.target.findFirstOrThrow({ where: { name: 'stm32' } });
      for (const name of ['nrf52', 'rp2040']) {
        await gw.prisma.target.create({ data: { projectId: target.projectId, name } });
      }
      const before = asked(`/repos/${REPO}/pulls/12`);
      const results = await Promise.all(
        ['nrf52', 'rp2040'].map((name) => tokenless(membrowseBody(HEAD, { target: name }))),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(asked(`/repos/${REPO}/pulls/12`)).toBe(before);

      const next = sha('c');
      pull(12).headSha = next;
      const moved = await tokenless(membrowseBody(next));
      expect(moved.status).toBe(200);
      expect(asked(`/repos/${REPO}/pulls/12`)).toBe(before + 1);
      // The old head is no longer the PR's: refused, from the answer just fetched.
      await expectRefused(
        () => tokenless(membrowseBody(HEAD, { target: 'stm32-debug' })),
        401,
        `Commit ${HEAD} is not the head of pull request #12 of ${REPO} (its head is ${next})`,
      );
      pull(12).headSha = HEAD;
    });

    it('never replaces a report: neither the base branch nor its own', async () => {
      github.pull(REPO, {
        number: 13,
        state: 'open',
        title: 'Points at main',
        author: 'contrib',
        headSha: BASE,
        headRef: 'main',
        headOwner: 'contrib',
      });
      await expectRefused(
        () => tokenless(membrowseBody(BASE, { pr: 13 })),
        409,
        `Commit ${BASE} already has a report for target "stm32", and this upload may only add reports, not replace them`,
      );
      await expectRefused(
        () => tokenless(membrowseBody(HEAD)),
        409,
        'may only add reports, not replace them',
      );
      expect(await reportOf(BASE)).toMatchObject({ branch: 'main', version: 1 });
    });

    it('adds reports to existing targets only', async () => {
      await expectRefused(
        () => tokenless(membrowseBody(HEAD, { target: 'brand-new-board' })),
        403,
        'The project has no target "brand-new-board", and this upload may only add reports to existing targets',
      );
    });

    it('refuses every claim GitHub does not confirm, with 401 and the reason', async () => {
      github.pull(REPO, {
        number: 14,
        state: 'closed',
        title: 'Closed',
        author: 'contrib',
        headSha: sha('d'),
        headRef: 'old',
        headOwner: 'contrib',
      });
      github.repository('other/firmware', { id: 77, private: false });
      const cases: Array<[string, unknown, string | RegExp]> = [
        [
          'no github_context',
          membrowseBody(sha('e'), { context: null }),
          'A tokenless upload needs metadata.github_context',
        ],
        [
          'a repository no project takes tokenless uploads from',
          membrowseBody(sha('e'), { context: { repository: 'other/firmware' } }),
          'No project takes tokenless uploads from other/firmware',
        ],
        [
          'a pull request that does not exist',
          membrowseBody(sha('e'), { pr: 99 }),
          `Pull request #99 not found in ${REPO}`,
        ],
        [
          'a closed pull request',
          membrowseBody(sha('d'), { pr: 14 }),
          `Pull request #14 of ${REPO} is not open`,
        ],
        [
          'a commit that is not the head',
          membrowseBody(sha('e')),
          `Commit ${sha('e')} is not the head of pull request #12`,
        ],
        [
          'a context naming another commit than the upload',
          membrowseBody(sha('e'), { context: { commit_sha: HEAD } }),
          `metadata.github_context.commit_sha (${HEAD}) is not the uploaded commit (${sha('e')})`,
        ],
      ];
      for (const [, body, message] of cases) {
        await expectRefused(() => tokenless(body), 401, message);
      }
      await expectRefused(
        () => tokenless(membrowseBody(sha('e'), { context: { pr_number: 'twelve' } })),
        400,
        'metadata.github_context.pr_number must be a pull request number',
      );
      await expectRefused(
        () => call<UploadAnswer>(gw.url, 'POST', '/upload', { body: membrowseBody(sha('e')) }),
        401,
        'API key required: send Authorization: Bearer <key>',
      );
    });

    it('refuses a repository that turned private, or was replaced by another of its name', async () => {
      github.pull(REPO, {
        number: 15,
        state: 'open',
        title: 'Later',
        author: 'contrib',
        headSha: sha('f'),
        headRef: 'later',
        headOwner: 'contrib',
      });
      github.repository(REPO, { id: REPO_ID, private: true });
      // Anonymous callers see a private repository as missing, as on GitHub.
      await expectRefused(
        () => tokenless(membrowseBody(sha('f'), { pr: 15 })),
        401,
        `Pull request #15 not found in ${REPO}`,
      );
      github.repository(REPO, { id: REPO_ID + 500, private: false });
      github.pull(REPO, {
        number: 16,
        state: 'open',
        title: 'On the impostor',
        author: 'contrib',
        headSha: sha('f'),
        headRef: 'later',
        headOwner: 'contrib',
      });
      await expectRefused(
        () => tokenless(membrowseBody(sha('f'), { pr: 16 })),
        401,
        `${REPO} is no longer the repository the project linked (GitHub id ${REPO_ID + 500}, linked ${REPO_ID})`,
      );
      github.repository(REPO, { id: REPO_ID, private: false });
    });

    it('answers 503, which clients retry, while GitHub cannot answer', async () => {
      github.pull(REPO, {
        number: 17,
        state: 'open',
        title: 'During an outage',
        author: 'contrib',
        headSha: sha('1'),
        headRef: 'outage',
        headOwner: 'contrib',
      });
      github.outage = 502;
      await expectRefused(
        () => tokenless(membrowseBody(sha('1'), { pr: 17 })),
        503,
        /GitHub API answered 502 .* retry later/,
      );
      github.outage = null;
      github.anonymousAllowance = 0;
      await expectRefused(
        () => tokenless(membrowseBody(sha('1'), { pr: 17 })),
        503,
        /GitHub API rate limit reached until .*GITHUB_API_TOKEN/,
      );
      github.anonymousAllowance = Infinity;
      expect((await tokenless(membrowseBody(sha('1'), { pr: 17 }))).status).toBe(200);
    });

    it('stops taking them once the project turns tokenless uploads off', async () => {
      expect((await settings({ tokenless_uploads: false })).status).toBe(200);
      await expectRefused(
        () => tokenless(membrowseBody(HEAD, { target: 'nrf52-debug' })),
        401,
        `No project takes tokenless uploads from ${REPO}`,
      );
      expect((await settings({ tokenless_uploads: true })).status).toBe(200);
    });
  });

  describe('GitHub Actions OIDC tokens', () => {
    it('lets a push to a branch upload any commit of that branch, replacing reports', async () => {
      const token = await oidcToken({ event_name: 'push', ref: 'refs/heads/main' });
      const first = await withBearer(token, branchBody(sha('2'), 'main'));
      expect(first.status).toBe(200);
      const again = await withBearer(token, branchBody(sha('2'), 'main'));
      expect(again.body).toMatchObject({ success: true, data: { is_overwritten: true } });
      // No branch in the upload: it is the token's.
      const unnamed = await withBearer(token, branchBody(sha('3'), null, 'new-board'));
      expect(unnamed.status).toBe(200);
      expect(await reportOf(sha('3'), 'new-board')).toMatchObject({ branch: 'main' });
      const dispatched = await oidcToken({
        event_name: 'workflow_dispatch',
        ref: 'refs/heads/release/2.0',
      });
      expect((await withBearer(dispatched, branchBody(sha('4'), 'release/2.0'))).status).toBe(200);
    });

    it('keeps pull_request tokens, fork PRs included, to adding their head commit', async () => {
      github.pull(REPO, {
        number: 20,
        state: 'open',
        title: 'From a fork, with id-token',
        author: 'contrib',
        headSha: sha('5'),
        headRef: 'oidc',
        headOwner: 'contrib',
      });
      const token = await oidcToken({ event_name: 'pull_request', ref: 'refs/pull/20/merge' });
      const accepted = await withBearer(token, branchBody(sha('5'), 'main'));
      expect(accepted.status).toBe(200);
      expect(await reportOf(sha('5'))).toMatchObject({
        branch: 'contrib:oidc',
        prNumber: '20',
        prName: 'From a fork, with id-token',
      });
      await expectRefused(
        () => withBearer(token, branchBody(BASE, 'main')),
        401,
        `Commit ${BASE} is not the head of pull request #20`,
      );
      await expectRefused(
        () => withBearer(token, branchBody(sha('5'), 'main')),
        409,
        'may only add reports, not replace them',
      );
    });

    it('refuses tokens that are not genuine, not ours, or not of the linked repository', async () => {
      const hs256 = [
        Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url'),
        Buffer.from(
          JSON.stringify({
            aud: audience,
            iss: issuer.issuer,
            repository: REPO,
            event_name: 'push',
            ref: 'refs/heads/main',
            exp: Math.floor(Date.now() / 1000) + 300,
          }),
        ).toString('base64url'),
        'c2lnbmF0dXJl',
      ].join('.');
      const cases: Array<[string, Promise<string> | string, string | RegExp]> = [
        [
          'signed by a key the issuer does not list',
          oidcToken({}, audience, { foreignKey: true }),
          /^OIDC token rejected: no applicable key found in the JSON Web Key Set$/,
        ],
        [
          'expired',
          oidcToken({}, audience, { expiresInS: -120 }),
          /^OIDC token rejected: "exp" claim timestamp check failed$/,
        ],
        [
          'from another issuer',
          oidcToken({}, audience, { issuer: 'https://token.actions.example.com' }),
          /^OIDC token rejected: unexpected "iss" claim value$/,
        ],
        ['HS256 instead of RS256', hs256, /^OIDC token rejected: .*"alg"/],
        [
          'for another audience',
          oidcToken({}, 'sts.amazonaws.com'),
          'The OIDC token must be requested for the audience memtrail:<project id>',
        ],
        [
          'for a project that does not exist',
          oidcToken({}, oidcAudience('00000000-0000-4000-8000-000000000000')),
          'Project 00000000-0000-4000-8000-000000000000 does not accept OIDC uploads',
        ],
        [
          'of another repository',
          oidcToken({ repository: 'other/firmware', repository_id: '77' }),
          `The OIDC token is from other/firmware; project ${project.id} takes uploads from ${REPO}`,
        ],
        [
          'of a repository re-created under the linked name',
          oidcToken({ repository_id: String(REPO_ID + 500) }),
          `The OIDC token is from a repository named ${REPO} with GitHub id ${REPO_ID + 500}, not the one linked (${REPO_ID})`,
        ],
      ];
      for (const [, token, message] of cases) {
        const raw = await token;
        await expectRefused(() => withBearer(raw, branchBody(sha('6'), 'main')), 401, message);
      }
    });

    it('refuses events that could let a pull request write to a branch', async () => {
      const cases: Array<[Partial<ActionsTokenClaims>, string]> = [
        [
          { event_name: 'push', ref: 'refs/heads/feature' },
          'This OIDC token may upload to branch feature only; the upload is for branch main',
        ],
        [
          { event_name: 'pull_request_target', ref: 'refs/heads/main' },
          'OIDC tokens of pull_request_target events cannot upload',
        ],
        [
          { event_name: 'workflow_run', ref: 'refs/heads/main' },
          'OIDC tokens of workflow_run events cannot upload',
        ],
        [
          { event_name: 'push', ref: 'refs/tags/v1.0' },
          'OIDC tokens of push events on "refs/tags/v1.0" cannot upload: only branch refs can',
        ],
      ];
      for (const [claims, message] of cases) {
        const token = await oidcToken(claims);
        await expectRefused(() => withBearer(token, branchBody(sha('6'), 'main')), 403, message);
      }
    });

    it('stops taking them once the project turns OIDC off', async () => {
      const token = await oidcToken({});
      expect((await withBearer(token, branchBody(sha('7'), 'main'))).status).toBe(200);
      expect((await settings({ oidc_uploads: false })).status).toBe(200);
      await expectRefused(
        () => withBearer(token, branchBody(sha('8'), 'main')),
        401,
        `Project ${project.id} does not accept OIDC uploads`,
      );
      expect((await settings({ oidc_uploads: true })).status).toBe(200);
    });

    it("works as the memtrail CLI's API key", async () => {
      const dir = tempDir();
      try {
        const head = makeRepo(dir.path).commit('Firmware', { 'fw.c': 'int main(void){}\n' });
        const report = join(dir.path, 'report.json');
        writeFileSync(report, readFileSync(SAMPLE));
        const run = async (ref: string) => {
          const token = await oidcToken({ event_name: 'push', ref });
          const args = ['upload', '--from-json', report, '--target-name', 'cli-board'];
          const env = cleanEnv({ MEMTRAIL_API_KEY: token, MEMTRAIL_API_URL: gw.url });
          return promisify(execFile)(process.execPath, [CLI, ...args], { cwd: dir.path, env })
            .then(({ stdout }) => ({ code: 0, stdout, stderr: '' }))
            .catch((error: { code: number; stdout: string; stderr: string }) => error);
        };
        const uploaded = await run('refs/heads/main');
        expect(uploaded.code).toBe(0);
        expect(uploaded.stdout).toMatch(new RegExp(`^Uploaded cli-board @ ${head.slice(0, 7)}`));
        expect(await reportOf(head, 'cli-board')).toMatchObject({ branch: 'main' });
        const refused = await run('refs/heads/other');
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          'This OIDC token may upload to branch other only; the upload is for branch main',
        );
      } finally {
        dir.cleanup();
      }
    });
  });

  // Last: a second gateway in this process takes over passport's process-wide JWT strategy, so
  // once it closes, signed-in calls to the first gateway would reach its ended Postgres pool.
  describe('on a gateway of its own', () => {
    it('limits tokenless uploads per client address, before anything is decoded', async () => {
      const limited = await startGateway(
        { ...stores, queuePrefix: `${stores.queuePrefix}-limited` },
        {
          DEPLOYMENT_MODE: 'onprem',
          GITHUB_API_URL: github.apiUrl,
          OIDC_ISSUER: issuer.issuer,
          UPLOAD_TOKENLESS_RATE_LIMIT_PER_MINUTE: '2',
        },
      );
      try {
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push(await tokenless('not even json', limited.url));
        expect(answers.map((a) => a.status)).toEqual([400, 400, 429]);
        expect(answers[2]!.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(answers[2]!.body.error).toMatch(
          /^Upload rate limit of 2 per minute exceeded for tokenless uploads; retry after \d+ s$/,
        );
      } finally {
        await limited.close();
      }
    });

    it('answers 503 while the issuer cannot be reached', async () => {
      const closed = await ActionsOidcIssuer.start();
      const unreachable = closed.issuer;
      await closed.close();
      const other = await startGateway(
        { ...stores, queuePrefix: `${stores.queuePrefix}-issuer` },
        { DEPLOYMENT_MODE: 'onprem', GITHUB_API_URL: github.apiUrl, OIDC_ISSUER: unreachable },
      );
      try {
        const token = await oidcToken({});
        await expectRefused(
          () => withBearer(token, branchBody(sha('9'), 'main'), other.url),
          503,
          new RegExp(
            `^OIDC issuer ${unreachable} could not be asked for its keys: .*; retry later$`,
          ),
        );
      } finally {
        await other.close();
      }
    });
  });
});
