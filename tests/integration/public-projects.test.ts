import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  GITHUB_REPOSITORY_MESSAGE,
  formatBytes,
  oidcAudience,
  type MemoryReport,
  type ProjectWithApiKey,
  type PublicAccessData,
  type UploadEnvelope,
} from '@memtrail/contracts';
import { createIsolatedStores, GithubStandIn, type IsolatedStores } from '@memtrail/testing';
import {
  call,
  signUpOnPrem,
  startGateway,
  type Gateway,
} from '../../services/gateway/test/support/gateway-harness.js';

const sample = JSON.parse(
  readFileSync(new URL('../fixtures/membrowse-sample-report.json', import.meta.url), 'utf8'),
) as MemoryReport;

/** The sample report with FLASH grown to `used` bytes. */
function withFlashUsed(used: number): MemoryReport {
  const flash = sample.memory_layout.FLASH!;
  return {
    ...sample,
    memory_layout: {
      ...sample.memory_layout,
      FLASH: { ...flash, used_size: used, free_size: flash.limit_size - used },
    },
  };
}

const upload = (commit: string, branch: string, report = sample): UploadEnvelope => ({
  metadata: {
    git: { commit_hash: commit, branch_name: branch },
    target_name: 'stm32',
    identical: false,
  },
  memory_analysis: report,
});

/** badge-maker's values of shields.io's colour names. */
const HEX = { blue: '#007ec6', brightgreen: '#4b0', yellow: '#d8b800', red: '#dd4343' };

describe('public projects: the setting, its repository link, and badges', () => {
  let stores: IsolatedStores;
  let gw: Gateway;
  let github: GithubStandIn;
  let owner: string;
  let member: string;
  let stranger: string;
  let project: ProjectWithApiKey;

  const publicAccess = (body?: Record<string, unknown>, token = owner, id = project.id) =>
    call<{ data: PublicAccessData; error?: string; type?: string }>(
      gw.url,
      body ? 'PUT' : 'GET',
      `/api/projects/${id}/public-access`,
      { token, ...(body ? { body } : {}) },
    );
  const createProject = async (name: string) =>
    (
      await call<{ data: { project: ProjectWithApiKey } }>(gw.url, 'POST', '/api/projects', {
        token: owner,
        body: { name },
      })
    ).body.data.project;
  const badge = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${gw.url}/badge/${path}`, { headers });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };

  beforeAll(async () => {
    stores = await createIsolatedStores();
    github = await GithubStandIn.start();
    github.repository('example/sample-fw', { id: 101, private: false });
    github.repository('example/secret-fw', { id: 102, private: true });
    gw = await startGateway(stores, {
      DEPLOYMENT_MODE: 'onprem',
      GITHUB_API_URL: github.apiUrl,
      CORE_URL: 'https://memtrail.example.com',
    });
    owner = (await signUpOnPrem(gw.url, 'owner@example.com')).access_token;
    const memberSession = await signUpOnPrem(gw.url, 'member@example.com');
    member = memberSession.access_token;
    stranger = (await signUpOnPrem(gw.url, 'stranger@example.com')).access_token;
    project = await createProject('Open firmware');
    await gw.prisma.projectMember.create({
      data: { projectId: project.id, userId: memberSession.user.id, role: 'member' },
    });
    const stored = await call(gw.url, 'POST', '/upload', {
      body: upload('a'.repeat(40), 'main'),
      headers: { authorization: `Bearer ${project.api_key}` },
    });
    expect(stored.status).toBe(200);
  });

  afterAll(async () => {
    await gw?.close();
    await github?.close();
    await stores?.cleanup();
  });

  describe('the public-access setting', () => {
    it('is off by default, with the audience, public URL and badge URL to use', async () => {
      const read = await publicAccess();
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({
        settings: {
          public: false,
          repository: null,
          tokenless_uploads: false,
          oidc_uploads: false,
        },
        oidc_audience: oidcAudience(project.id),
        public_url: `${gw.url}/project/${project.id}`,
        badge_base_url: `https://memtrail.example.com/badge/${project.id}`,
      });
    });

    it("links a repository by any usual spelling, under GitHub's own name", async () => {
      for (const spelling of [
        'Example/Sample-FW',
        'https://github.com/example/sample-fw.git',
        'git@github.com:EXAMPLE/sample-fw.git',
        'https://github.example.com/example/sample-fw/',
      ]) {
        const linked = await publicAccess({ repository: spelling });
        expect({
          spelling,
          status: linked.status,
          repository: linked.body.data.settings.repository,
        }).toEqual({ spelling, status: 200, repository: 'example/sample-fw' });
      }
      const row = await gw.prisma.project.findUniqueOrThrow({ where: { id: project.id } });
      expect(row.githubRepositoryId).toBe(101n);
    });

    it('refuses what is not a repository or not a switch, changing nothing', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ repository: 'not a repository' }, GITHUB_REPOSITORY_MESSAGE],
        [{ repository: 'a/b/c' }, GITHUB_REPOSITORY_MESSAGE],
        [{ repository: '-owner/name' }, GITHUB_REPOSITORY_MESSAGE],
        [{ repository: 'owner/..' }, GITHUB_REPOSITORY_MESSAGE],
        [{ repository: 42 }, GITHUB_REPOSITORY_MESSAGE],
        [{ public: 'yes' }, 'public must be true or false'],
        [{ tokenless_uploads: 1 }, 'tokenless_uploads must be true or false'],
        [{}, 'Send public, repository, tokenless_uploads or oidc_uploads to update'],
      ];
      const before = await publicAccess();
      for (const [body, message] of cases) {
        const result = await publicAccess(body);
        expect({ body, status: result.status, error: result.body.error }).toEqual({
          body,
          status: 400,
          error: message,
        });
      }
      expect((await publicAccess()).body).toEqual(before.body);
    });

    it('takes tokenless uploads only for a public repository no other project takes them for', async () => {
      const other = await createProject('Private firmware');
      const unlinked = await publicAccess({ tokenless_uploads: true }, owner, other.id);
      expect(unlinked.status).toBe(400);
      expect(unlinked.body.error).toBe(
        'Link a GitHub repository before turning on keyless uploads',
      );

      // Invisible to the GitHub API (private): OIDC can work, tokenless cannot.
      const secret = await publicAccess(
        { repository: 'example/secret-fw', oidc_uploads: true },
        owner,
        other.id,
      );
      expect(secret.body.data.settings).toMatchObject({
        repository: 'example/secret-fw',
        oidc_uploads: true,
        tokenless_uploads: false,
      });
      const refused = await publicAccess({ tokenless_uploads: true }, owner, other.id);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(
        'GitHub does not show example/secret-fw as a public repository: tokenless uploads are only accepted from pull requests of public repositories (use OIDC for private ones)',
      );

      expect((await publicAccess({ tokenless_uploads: true })).status).toBe(200);
      const taken = await publicAccess(
        { repository: 'example/sample-fw', tokenless_uploads: true },
        owner,
        other.id,
      );
      expect(taken.status).toBe(409);
      expect(taken.body.error).toBe(
        'Another project already takes the tokenless uploads of example/sample-fw',
      );
      // Linking alone (for OIDC, whose tokens name their project) is not taking them.
      const shared = await publicAccess({ repository: 'example/sample-fw' }, owner, other.id);
      expect(shared.body.data.settings).toEqual({
        public: false,
        repository: 'example/sample-fw',
        tokenless_uploads: false,
        oidc_uploads: false,
      });
    });

    it('turns keyless uploads off when the repository changes or is unlinked', async () => {
      await publicAccess({
        repository: 'example/sample-fw',
        tokenless_uploads: true,
        oidc_uploads: true,
      });
      const relinked = await publicAccess({ repository: 'example/secret-fw' });
      expect(relinked.body.data.settings).toMatchObject({
        repository: 'example/secret-fw',
        tokenless_uploads: false,
        oidc_uploads: false,
      });
      const unlinked = await publicAccess({ repository: null });
      expect(unlinked.body.data.settings).toMatchObject({ repository: null, oidc_uploads: false });
      expect((await publicAccess({ repository: 'example/sample-fw' })).status).toBe(200);
    });

    it('answers 503 when GitHub cannot be asked about a repository, storing nothing', async () => {
      github.outage = 500;
      try {
        const result = await publicAccess({ repository: 'example/other-fw' });
        expect(result.status).toBe(503);
        expect(result.body.error).toMatch(/^GitHub API answered 500 .* retry later$/);
      } finally {
        github.outage = null;
      }
      expect((await publicAccess()).body.data.settings.repository).toBe('example/sample-fw');
    });

    it('is read by members, changed by admins and owners, and invisible to everyone else', async () => {
      expect((await publicAccess(undefined, member)).status).toBe(200);
      const byMember = await publicAccess({ public: true }, member);
      expect({ status: byMember.status, type: byMember.body.type }).toEqual({
        status: 403,
        type: 'ForbiddenError',
      });
      for (const body of [undefined, { public: true }]) {
        const byStranger = await publicAccess(body, stranger);
        expect({ status: byStranger.status, type: byStranger.body.type }).toEqual({
          status: 404,
          type: 'NotFoundError',
        });
        const signedOut = await call(
          gw.url,
          body ? 'PUT' : 'GET',
          `/api/projects/${project.id}/public-access`,
          {
            ...(body ? { body } : {}),
          },
        );
        expect(signedOut.status).toBe(401);
      }
      expect((await publicAccess()).body.data.settings.public).toBe(false);
    });
  });

  describe('badges', () => {
    const flashPath = () => `${project.id}/stm32.svg?region=FLASH`;

    it('show nothing of a private project: the same "not found" as a missing one', async () => {
      const answers = await Promise.all([
        badge(flashPath()),
        badge(`00000000-0000-4000-8000-000000000000/stm32.svg?region=FLASH`),
        badge(`not-a-uuid/stm32.svg?region=FLASH`),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
        expect(answer.headers.get('cache-control')).toBe('no-store');
        expect(answer.body).toContain('not found');
        expect(answer.body).toBe(answers[0]!.body);
      }
      const json = await fetch(`${gw.url}/badge/${project.id}/stm32.json?region=FLASH`);
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({
        schemaVersion: 1,
        label: 'memtrail',
        message: 'not found',
        color: 'lightgrey',
        isError: true,
      });
    });

    it("show a public project's region usage of its main branch, cacheable", async () => {
      expect((await publicAccess({ public: true })).status).toBe(200);
      const flash = sample.memory_layout.FLASH!;
      const message = `${((flash.used_size / flash.limit_size) * 100).toFixed(1)} % · ${formatBytes(flash.used_size)}`;
      const svg = await badge(flashPath());
      expect(svg.status).toBe(200);
      expect(svg.body).toContain(`<title>FLASH: ${message}</title>`);
      expect(svg.body).toContain(`fill="${HEX.blue}"`);
      expect(svg.headers.get('cache-control')).toBe('public, max-age=60');
      expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
      expect(svg.headers.get('content-security-policy')).toBe(
        "default-src 'none'; style-src 'unsafe-inline'",
      );
      const etag = svg.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await badge(flashPath(), { 'if-none-match': etag });
      expect({ status: again.status, body: again.body }).toEqual({ status: 304, body: '' });

      const json = await fetch(`${gw.url}/badge/${project.id}/stm32.json?region=FLASH`);
      expect(await json.json()).toEqual({
        schemaVersion: 1,
        label: 'FLASH',
        message,
        color: 'blue',
        cacheSeconds: 60,
      });
    });

    it('choose main over a branch that moved later, and any branch on request', async () => {
      const used = 115_712;
      const moved = await call(gw.url, 'POST', '/upload', {
        body: upload('b'.repeat(40), 'develop', withFlashUsed(used)),
        headers: { authorization: `Bearer ${project.api_key}` },
      });
      expect(moved.status).toBe(200);
      expect((await badge(flashPath())).body).toContain('<title>FLASH: 0.2 % · 413 B</title>');
      const develop = await badge(`${project.id}/stm32.svg?region=FLASH&branch=develop`);
      expect(develop.body).toContain('<title>FLASH: 44.1 % · 113 KiB</title>');
    });

    it('are coloured by the budgets that apply to the branch', async () => {
      const budgets = `/api/${project.id}/stm32/budgets`;
      const used = sample.memory_layout.FLASH!.used_size;
      const cases: Array<[number, string]> = [
        [used + 100, HEX.brightgreen],
        [used + 10, HEX.yellow],
        [used - 1, HEX.red],
      ];
      let previous: string | undefined;
      for (const [limit, colour] of cases) {
        if (previous) await call(gw.url, 'DELETE', `${budgets}/${previous}`, { token: owner });
        const created = await call<{ data: { budget: { id: string } } }>(gw.url, 'POST', budgets, {
          token: owner,
          body: { name: 'Flash', limits: { FLASH: limit } },
        });
        previous = created.body.data.budget.id;
        expect({
          limit,
          svg: (await badge(flashPath())).body.includes(`fill="${colour}"`),
        }).toEqual({
          limit,
          svg: true,
        });
      }
      // A budget for release branches only does not colour main's badge.
      await call(gw.url, 'PUT', `${budgets}/${previous}`, {
        token: owner,
        body: { name: 'Flash', branch_pattern: 'release/*', limits: { FLASH: used - 1 } },
      });
      expect((await badge(flashPath())).body).toContain(`fill="${HEX.blue}"`);
    });

    it('use the region configuration, escaped', async () => {
      const config = await call(gw.url, 'PUT', `/api/${project.id}/stm32/region-config`, {
        token: owner,
        body: { region_config: { FLASH: { display_name: 'Flash <b>&', limit: 1024 } } },
      });
      expect(config.status).toBe(200);
      const svg = await badge(flashPath());
      expect(svg.body).toContain('<title>Flash &lt;b&gt;&amp;: 40.3 % · 413 B</title>');
      expect(svg.body).not.toContain('<b>');
    });

    it('say what is missing for a public project', async () => {
      const cases: Array<[string, number, string]> = [
        [`${project.id}/nrf52.svg?region=FLASH`, 404, 'target not found'],
        [`${project.id}/stm32.svg?region=ITCM`, 404, 'region not found'],
        [`${project.id}/stm32.svg?region=FLASH&branch=nope`, 404, 'no report on branch'],
        [`${project.id}/stm32.png?region=FLASH`, 404, 'not found'],
        [`${project.id}/stm32.svg?region=FLASH&region=RAM`, 400, 'region must be given once'],
      ];
      for (const [path, status, message] of cases) {
        const answer = await badge(path);
        expect({
          path,
          status: answer.status,
          message: answer.body.includes(`: ${message}</title>`),
        }).toEqual({ path, status, message: true });
      }
    });

    it('stop at once when the project is private again', async () => {
      expect((await publicAccess({ public: false })).status).toBe(200);
      const svg = await badge(flashPath());
      expect(svg.status).toBe(404);
      expect(svg.body).toContain('<title>memtrail: not found</title>');
    });
  });

  it('records every switch in the audit log, with who made it', async () => {
    const events = await gw.prisma.auditEvent.findMany({
      where: { projectId: project.id, action: { startsWith: 'project.' } },
      orderBy: { id: 'asc' },
    });
    const switches = events.filter((e) => e.action.startsWith('project.made_'));
    expect(switches.map((e) => [e.action, e.actorLabel])).toEqual([
      ['project.made_public', 'owner@example.com'],
      ['project.made_private', 'owner@example.com'],
    ]);
    const links = events.filter((e) => e.action === 'project.keyless_uploads_updated');
    expect(links[0]!.details).toEqual({ repository: { from: null, to: 'example/sample-fw' } });
    expect(links.map((e) => e.details)).toContainEqual({
      tokenless_uploads: { from: false, to: true },
    });
  });
});
