/**
 * A local stand-in for the parts of GitHub's REST API that CI tools use on pull requests: issue
 * comments, pull requests, commit statuses and check runs, and the repository and pull-request
 * reads a server makes to check keyless uploads. It answers as GitHub does — the same paths
 * (optionally under GitHub Enterprise's `/api/v3`), status codes, `{message}` errors, 422
 * validation failures, `Link` pagination, ascending comment ids, a read-only token's 403,
 * repository names in any case, reads of public repositories without a token (a private one is
 * a 404 to them), and a 403 with `x-ratelimit-remaining: 0` once the anonymous allowance is
 * spent.
 */
import {
  Barrier,
  pageOf,
  serveJson,
  type RunningStandIn,
  type StandInReply,
  type StandInRequest,
} from './server.js';

export interface GithubToken {
  login: string;
  /** False: a fork pull request's read-only GITHUB_TOKEN. */
  write: boolean;
}

export interface GithubPull {
  number: number;
  state: 'open' | 'closed';
  headSha: string;
  headRef: string;
  /** Owner of the head repository (a fork's owner for fork pull requests). */
  headOwner: string;
  title?: string;
  /** Login of the pull request's author; the head's owner when not given. */
  author?: string;
}

/** What GitHub says of a repository itself. */
export interface GithubRepositoryInfo {
  id: number;
  /** `owner/name` as GitHub spells it (lookups ignore case). */
  fullName: string;
  private: boolean;
}

export interface GithubComment {
  id: number;
  /** The pull request (issue) it is on. */
  issue: number;
  body: string;
  user: string;
}

export interface GithubStatus {
  state: string;
  context: string;
  description: string | null;
  target_url: string | null;
}

export interface GithubCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  output: { title?: string; summary?: string } | null;
}

const DOCS = 'https://docs.github.com/rest';
const STATUS_STATES = ['error', 'failure', 'pending', 'success'];
const CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
];
const MAX_BODY = 65_536;

const fail = (
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
): StandInReply => ({
  status,
  body: { message, documentation_url: DOCS, ...extra },
});
const invalid = (resource: string, field: string, message: string): StandInReply =>
  fail(422, 'Validation Failed', { errors: [{ resource, code: 'custom', field, message }] });

class Repository {
  constructor(public info: GithubRepositoryInfo) {}
  pulls = new Map<number, GithubPull>();
  comments: GithubComment[] = [];
  statuses = new Map<string, GithubStatus[]>();
  checkRuns: GithubCheckRun[] = [];
}

export class GithubStandIn {
  private readonly tokens = new Map<string, GithubToken>();
  private readonly repos = new Map<string, Repository>();
  private nextId = 1000;
  private listBarrier: Barrier | undefined;
  /** Requests callers without a token have left; Infinity: no limit. */
  anonymousAllowance = Infinity;
  /** When set, every request is answered with this status (GitHub having an outage). */
  outage: number | null = null;

  private constructor(
    private readonly server: RunningStandIn,
    /** '' for github.com's layout, '/api/v3' for GitHub Enterprise Server's. */
    private readonly prefix: string,
  ) {}

  static async start(options: { enterprise?: boolean } = {}): Promise<GithubStandIn> {
    // The server needs the stand-in's handler, the stand-in the running server.
    const ref: { current?: GithubStandIn } = {};
    const server = await serveJson((request) => ref.current!.handle(request));
    return (ref.current = new GithubStandIn(server, options.enterprise ? '/api/v3' : ''));
  }

  /** The API root a client is configured with (GITHUB_API_URL). */
  get apiUrl(): string {
    return `${this.server.origin}${this.prefix}`;
  }

  /** Requests in arrival order, as `METHOD /path`. */
  get log(): string[] {
    return this.server.log;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  token(value: string, token: GithubToken): void {
    this.tokens.set(value, token);
  }

  /**
   * The repository, created public on first use. `info` sets its id and visibility; a new id
   * is the repository deleted and created again under its name (its pull requests stay).
   */
  repository(fullName: string, info?: Omit<GithubRepositoryInfo, 'fullName'>): Repository {
    let repo = this.repos.get(fullName.toLowerCase());
    if (!repo) {
      repo = new Repository({ id: this.nextId++, fullName, private: false });
      this.repos.set(fullName.toLowerCase(), repo);
    }
    if (info) repo.info = { ...info, fullName: repo.info.fullName };
    return repo;
  }

  pull(fullName: string, pull: GithubPull): void {
    this.repository(fullName).pulls.set(pull.number, pull);
  }

  /** A comment written directly, e.g. a leftover of an earlier run. */
  seedComment(
    fullName: string,
    issue: number,
    body: string,
    user = 'github-actions[bot]',
  ): GithubComment {
    const comment = { id: this.nextId++, issue, body, user };
    this.repository(fullName).comments.push(comment);
    return comment;
  }

  /** The comments on one pull request, oldest first. */
  comments(fullName: string, issue: number): GithubComment[] {
    return this.repository(fullName).comments.filter((c) => c.issue === issue);
  }

  statuses(fullName: string, sha: string): GithubStatus[] {
    return [...(this.repository(fullName).statuses.get(sha) ?? [])];
  }

  checkRuns(fullName: string, sha: string): GithubCheckRun[] {
    return this.repository(fullName).checkRuns.filter((c) => c.head_sha === sha);
  }

  /** The next `count` comment listings wait for one another (see Barrier). */
  holdCommentLists(count: number): void {
    this.listBarrier = new Barrier(count);
  }

  /** The caller's token; null without one (anonymous reads), a reply when it is refused. */
  private auth(request: StandInRequest): GithubToken | null | StandInReply {
    const header = request.headers.authorization ?? '';
    const match = /^(?:Bearer|token)\s+(\S+)$/i.exec(header);
    if (!match) {
      if (request.method !== 'GET') return fail(401, 'Requires authentication');
      if (this.anonymousAllowance <= 0) {
        return {
          ...fail(403, 'API rate limit exceeded for 127.0.0.1.'),
          headers: {
            'x-ratelimit-limit': '60',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
          },
        };
      }
      this.anonymousAllowance--;
      return null;
    }
    return this.tokens.get(match[1]!) ?? fail(401, 'Bad credentials');
  }

  private async handle(request: StandInRequest): Promise<StandInReply> {
    if (this.outage !== null) return fail(this.outage, 'Server Error');
    if (!request.path.startsWith(`${this.prefix}/repos/`)) return fail(404, 'Not Found');
    const user = this.auth(request);
    if (user && 'status' in user) return user;
    const rest = request.path.slice(`${this.prefix}/repos/`.length).split('/');
    const [owner, name, ...route] = rest;
    const repo = this.repos.get(`${owner}/${name}`.toLowerCase());
    if (!repo || (repo.info.private && !user)) return fail(404, 'Not Found');
    const writes = request.method !== 'GET';
    if (writes && !user?.write) return fail(403, 'Resource not accessible by integration');
    const [kind, a, b, c] = route;
    const m = request.method;

    if (kind === undefined && m === 'GET') return { status: 200, body: repositoryJson(repo.info) };

    if (kind === 'pulls' && a === undefined && m === 'GET') {
      const head = request.query.get('head');
      const state = request.query.get('state') ?? 'open';
      const pulls = [...repo.pulls.values()].filter(
        (p) =>
          (state === 'all' || p.state === state) &&
          (!head || `${p.headOwner}:${p.headRef}` === head),
      );
      return this.paged(
        request,
        pulls.map((p) => pullJson(p, repo.info)),
      );
    }
    if (kind === 'pulls' && a && b === undefined && m === 'GET') {
      const pull = repo.pulls.get(Number(a));
      return pull ? { status: 200, body: pullJson(pull, repo.info) } : fail(404, 'Not Found');
    }
    if (kind === 'issues' && a !== 'comments' && b === 'comments') {
      if (!repo.pulls.has(Number(a))) return fail(404, 'Not Found');
      if (m === 'GET') {
        await this.listBarrier?.pass();
        return this.paged(
          request,
          repo.comments.filter((x) => x.issue === Number(a)).map((x) => commentJson(x)),
          30,
        );
      }
      if (m === 'POST') {
        const problem = bodyProblem(request.body);
        if (problem) return problem;
        const comment = {
          id: this.nextId++,
          issue: Number(a),
          body: (request.body as { body: string }).body,
          user: user!.login,
        };
        repo.comments.push(comment);
        return { status: 201, body: commentJson(comment) };
      }
    }
    if (kind === 'issues' && a === 'comments' && b && c === undefined) {
      const index = repo.comments.findIndex((x) => x.id === Number(b));
      if (index < 0) return fail(404, 'Not Found');
      const comment = repo.comments[index]!;
      if (m === 'PATCH') {
        if (comment.user !== user!.login)
          return fail(403, 'Resource not accessible by integration');
        const problem = bodyProblem(request.body);
        if (problem) return problem;
        comment.body = (request.body as { body: string }).body;
        return { status: 200, body: commentJson(comment) };
      }
      if (m === 'DELETE') {
        repo.comments.splice(index, 1);
        return { status: 204 };
      }
    }
    if (kind === 'statuses' && a && m === 'POST') {
      const input = (request.body ?? {}) as Partial<GithubStatus>;
      if (!STATUS_STATES.includes(String(input.state))) {
        return invalid('Status', 'state', `state is not included in the list`);
      }
      if ((input.description ?? '').length > 140) {
        return invalid(
          'Status',
          'description',
          'description is too long (maximum is 140 characters)',
        );
      }
      const status: GithubStatus = {
        state: input.state!,
        context: input.context ?? 'default',
        description: input.description ?? null,
        target_url: input.target_url ?? null,
      };
      repo.statuses.set(a, [...(repo.statuses.get(a) ?? []), status]);
      return { status: 201, body: { id: this.nextId++, ...status } };
    }
    if (kind === 'commits' && a && b === 'check-runs' && m === 'GET') {
      const name = request.query.get('check_name');
      const runs = repo.checkRuns
        .filter((r) => r.head_sha === a && (!name || r.name === name))
        .sort((x, y) => y.id - x.id);
      return { status: 200, body: { total_count: runs.length, check_runs: runs } };
    }
    if (kind === 'check-runs' && m === 'POST' && a === undefined) {
      const input = (request.body ?? {}) as Partial<GithubCheckRun>;
      const problem = checkRunProblem(input, true);
      if (problem) return problem;
      const run: GithubCheckRun = {
        id: this.nextId++,
        name: input.name!,
        head_sha: input.head_sha!,
        status: input.status ?? 'queued',
        conclusion: input.conclusion ?? null,
        details_url: input.details_url ?? null,
        output: input.output ?? null,
      };
      repo.checkRuns.push(run);
      return { status: 201, body: run };
    }
    if (kind === 'check-runs' && a && m === 'PATCH') {
      const run = repo.checkRuns.find((r) => r.id === Number(a));
      if (!run) return fail(404, 'Not Found');
      const input = (request.body ?? {}) as Partial<GithubCheckRun>;
      const problem = checkRunProblem({ ...run, ...input }, false);
      if (problem) return problem;
      Object.assign(run, input);
      return { status: 200, body: run };
    }
    return fail(404, 'Not Found');
  }

  private paged(request: StandInRequest, items: unknown[], defaultPerPage = 30): StandInReply {
    const { items: page, page: n, last } = pageOf(items, request.query, defaultPerPage);
    const links: string[] = [];
    const at = (p: number) => {
      const query = new URLSearchParams(request.query);
      query.set('page', String(p));
      return `<${this.server.origin}${request.path}?${query}>`;
    };
    if (n < last) links.push(`${at(n + 1)}; rel="next"`, `${at(last)}; rel="last"`);
    return { status: 200, body: page, headers: links.length ? { Link: links.join(', ') } : {} };
  }
}

function repositoryJson(info: GithubRepositoryInfo) {
  const [owner, name] = info.fullName.split('/');
  return {
    id: info.id,
    name,
    full_name: info.fullName,
    private: info.private,
    visibility: info.private ? 'private' : 'public',
    owner: { login: owner },
    default_branch: 'main',
  };
}

function pullJson(p: GithubPull, base: GithubRepositoryInfo) {
  const name = base.fullName.split('/')[1];
  return {
    number: p.number,
    state: p.state,
    title: p.title ?? `Pull request ${p.number}`,
    user: { login: p.author ?? p.headOwner },
    head: {
      sha: p.headSha,
      ref: p.headRef,
      label: `${p.headOwner}:${p.headRef}`,
      repo: { full_name: `${p.headOwner}/${name}` },
    },
    base: { ref: 'main', repo: repositoryJson(base) },
  };
}

function commentJson(c: GithubComment) {
  return { id: c.id, body: c.body, user: { login: c.user } };
}

function bodyProblem(body: unknown): StandInReply | undefined {
  const text = (body as { body?: unknown } | undefined)?.body;
  if (typeof text !== 'string' || text.trim() === '')
    return invalid('IssueComment', 'body', "body can't be blank");
  if (text.length > MAX_BODY) {
    return invalid('IssueComment', 'body', `body is too long (maximum is ${MAX_BODY} characters)`);
  }
  return undefined;
}

function checkRunProblem(
  run: Partial<GithubCheckRun>,
  creating: boolean,
): StandInReply | undefined {
  if (creating && (!run.name || !run.head_sha))
    return invalid('CheckRun', 'name', 'name and head_sha are required');
  if (run.status === 'completed' && !CONCLUSIONS.includes(String(run.conclusion))) {
    return invalid('CheckRun', 'conclusion', 'conclusion is required when status is completed');
  }
  if (run.output && (!run.output.title || (run.output.summary ?? '').length > MAX_BODY - 1)) {
    return invalid(
      'CheckRun',
      'output',
      'output needs a title and a summary of at most 65535 characters',
    );
  }
  return undefined;
}
