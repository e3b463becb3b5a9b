import type { SummaryTarget } from '@memtrail/contracts';
import { UsageError, type CommandSpec, type ParsedArgs } from '../args.js';
import { appendStepSummary, debug, info, RuntimeError, userAgent, type CliIo } from '../context.js';
import { ciKind, detectCi, readEvent, type Env } from '../git/ci.js';
import { gitOrNull } from '../git/exec.js';
import { GITHUB_API, GITHUB_MAX_BODY, GitHub } from '../pr/github.js';
import { GITLAB_MAX_BODY, GitLab, type GitlabAuth } from '../pr/gitlab.js';
import { RestError } from '../pr/rest.js';
import { keepSticky, type CommentThread, type StickyOutcome } from '../pr/sticky.js';
import { verdictOf, type Verdict } from '../pr/verdict.js';
import {
  COMMENT_MARKER,
  renderSummaryMarkdown,
  renderTarget,
  type RenderOptions,
  type Summary,
} from '../render/summary-markdown.js';
import { retryPolicyFromEnv } from '../upload/http.js';
import { fetchSummary } from '../upload/summary.js';
import { API_OPTIONS, RENDER_OPTIONS, renderOptions } from './options.js';
import { readTemplate } from './summary.js';

const PROVIDERS = ['github', 'gitlab', 'print'] as const;
type Provider = (typeof PROVIDERS)[number];
const STATUS_KINDS = ['status', 'check', 'none'] as const;
type StatusKind = (typeof STATUS_KINDS)[number];

export const commentSpec: CommandSpec = {
  name: 'comment',
  summary:
    'Post the summary of a commit as one sticky pull/merge request comment (created once, then ' +
    'updated) and a commit status per target; or print the Markdown for other systems.',
  usage: 'memtrail comment [commit-sha] [--provider github|gitlab|print] [--pr N] [options]',
  positionals: [
    {
      name: 'commit-sha',
      description: 'the commit to summarise (default: the CI event head commit, else HEAD)',
    },
  ],
  options: [
    ...API_OPTIONS,
    {
      name: 'provider',
      kind: 'string',
      valueName: 'NAME',
      description:
        'github, gitlab or print (default: github in GitHub Actions, gitlab in GitLab CI, else print)',
    },
    {
      name: 'pr',
      kind: 'string',
      valueName: 'N',
      description: 'pull/merge request number (default: from the CI event, else the summary)',
    },
    {
      name: 'repo',
      kind: 'string',
      valueName: 'NAME',
      description:
        'GitHub owner/name (default $GITHUB_REPOSITORY) or GitLab project id or path (default $CI_PROJECT_ID)',
    },
    {
      name: 'token-env',
      kind: 'string',
      valueName: 'NAME',
      description:
        'variable holding the code host token (default GITHUB_TOKEN or GH_TOKEN; GitLab: MEMTRAIL_GITLAB_TOKEN or GITLAB_TOKEN, else CI_JOB_TOKEN)',
    },
    ...RENDER_OPTIONS,
    {
      name: 'status',
      kind: 'string',
      valueName: 'KIND',
      description: 'per target: status (commit status, default), check (GitHub check run) or none',
    },
    {
      name: 'target',
      kind: 'list',
      valueName: 'NAME',
      description: 'set statuses for these targets only (default: every target of the commit)',
    },
    { name: 'no-comment', kind: 'boolean', description: 'set statuses only, post no comment' },
  ],
};

function choice<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  option: string,
): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a === value.toLowerCase());
  if (!found) {
    throw new UsageError(
      `--${option} must be one of ${allowed.join(', ')}, got '${value}'`,
      'comment',
    );
  }
  return found;
}

function positiveNumber(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

function firstToken(env: Env, names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The Markdown within the host's limit: fewer symbols, then folded, then cut with a note. */
function renderWithin(
  summary: Summary,
  template: string | undefined,
  options: RenderOptions,
  limit: number,
): string {
  const attempts: RenderOptions[] = [
    options,
    { ...options, maxSymbols: 0 },
    { maxSymbols: 0, collapseAfter: 0 },
  ];
  let body = '';
  for (const attempt of attempts) {
    body = renderSummaryMarkdown(summary, template, attempt);
    if (body.length <= limit) return body;
  }
  const note = `\n\n…cut at ${limit} characters; the dashboard has everything: ${summary.dashboard_url}\n`;
  return body.slice(0, limit - note.length) + note;
}

interface Context {
  args: ParsedArgs;
  io: CliIo;
  sha: string;
  template: string | undefined;
  options: RenderOptions;
  fetch(): Promise<Summary>;
}

async function commitToSummarise(args: ParsedArgs, io: CliIo): Promise<string> {
  const given = args.positionals[0]?.trim();
  if (given) return given.toLowerCase();
  const fromCi = detectCi(io.env).git.commit_hash ?? io.env.MEMTRAIL_COMMIT_SHA;
  if (fromCi) return fromCi.toLowerCase();
  const head = await gitOrNull(io.cwd, ['rev-parse', 'HEAD']);
  if (!head) {
    throw new UsageError(
      'give the commit SHA (no CI event names one, and this is not a git checkout)',
      'comment',
    );
  }
  return head;
}

function targetsFor(summary: Summary, args: ParsedArgs): SummaryTarget[] {
  const wanted = args.list('target');
  if (wanted.length === 0) return summary.targets ?? [];
  const known = new Set((summary.targets ?? []).map((t) => t.target_name));
  const missing = wanted.filter((name) => !known.has(name));
  if (missing.length > 0) {
    throw new RuntimeError(
      `no report of ${missing.join(', ')} for this commit on the server (it has: ${[...known].join(', ') || 'none'})`,
    );
  }
  return (summary.targets ?? []).filter((t) => wanted.includes(t.target_name));
}

function describe(outcome: StickyOutcome, where: string): string {
  if (outcome.action === 'skipped') return `No comment on ${where}: ${outcome.reason}`;
  const verb = { created: 'Created', updated: 'Updated', unchanged: 'Kept' }[outcome.action];
  return `${verb} the Memtrail comment on ${where} (comment ${outcome.id})`;
}

function stateWord(verdict: Verdict): string {
  return verdict.ok ? 'success' : 'failure';
}

async function postGithub(ctx: Context): Promise<void> {
  const { args, io, sha } = ctx;
  const env = io.env;
  const tokenNames = args.has('token-env')
    ? [args.string('token-env')!]
    : ['GITHUB_TOKEN', 'GH_TOKEN'];
  const token = firstToken(env, tokenNames);
  if (!token) {
    throw new UsageError(
      `no GitHub token: set ${tokenNames.join(' or ')} (in a workflow: env: GITHUB_TOKEN: \${{ github.token }})`,
      'comment',
    );
  }
  const repository = args.string('repo') ?? env.GITHUB_REPOSITORY;
  if (!repository || !/^[^/\s]+\/[^/\s]+$/.test(repository)) {
    throw new UsageError(
      'give the repository as owner/name with --repo (or set GITHUB_REPOSITORY)',
      'comment',
    );
  }
  const github = new GitHub(
    {
      baseUrl: env.GITHUB_API_URL || GITHUB_API,
      token,
      userAgent: userAgent(env),
      policy: retryPolicyFromEnv(env),
      log: (line) => debug(io, line),
    },
    repository,
  );
  const first = await ctx.fetch();
  let latest = first;
  if (!args.flag('no-comment')) {
    const pr = await githubPullNumber(args, env, github, sha, first);
    if (pr === undefined) {
      info(io, `${sha.slice(0, 7)} is not the head of an open pull request: no comment posted`);
    } else {
      const outcome = await keepSticky(github.thread(pr), {
        marker: COMMENT_MARKER,
        log: (line) => debug(io, line),
        render: async () => {
          const pull = await github.pull(pr);
          if (pull.head?.sha && pull.head.sha.toLowerCase() !== sha) {
            return {
              skip: `pull request #${pr} has moved on to ${pull.head.sha.slice(0, 7)}; its own run updates the comment`,
            };
          }
          latest = await ctx.fetch();
          return { body: renderWithin(latest, ctx.template, ctx.options, GITHUB_MAX_BODY) };
        },
      });
      io.stderr.write(`${describe(outcome, `pull request #${pr}`)}\n`);
    }
  }
  const kind = statusKind(args);
  for (const target of targetsFor(latest, args)) {
    const verdict = verdictOf(target);
    if (kind === 'status') await github.status(sha, verdict);
    if (kind === 'check') await github.checkRun(sha, verdict, renderTarget(target, ctx.options));
    if (kind !== 'none') {
      io.stderr.write(
        `${kind === 'check' ? 'Check run' : 'Status'} ${verdict.context}: ${stateWord(verdict)} — ${verdict.description}\n`,
      );
    }
  }
  appendStepSummary(io, renderSummaryMarkdown(latest, ctx.template, ctx.options));
}

/**
 * The pull request to comment on: `--pr`, the event's own (a pull_request event, or a
 * workflow_run of a branch in this repository), the open pull request whose head is the fork
 * branch a workflow_run ran for (GitHub leaves fork pull requests out of that event), else the
 * number the summary's uploads recorded.
 */
async function githubPullNumber(
  args: ParsedArgs,
  env: Env,
  github: GitHub,
  sha: string,
  summary: Summary,
): Promise<number | undefined> {
  const explicit = args.string('pr');
  if (explicit !== undefined) {
    const n = positiveNumber(explicit);
    if (n === undefined)
      throw new UsageError(`--pr expects a positive number, got '${explicit}'`, 'comment');
    return n;
  }
  const fromEvent = positiveNumber(
    ciKind(env) === 'github' ? detectCi(env).git.pr_number : undefined,
  );
  if (fromEvent !== undefined) return fromEvent;
  const run =
    env.GITHUB_EVENT_NAME === 'workflow_run'
      ? readEvent(env.GITHUB_EVENT_PATH).workflow_run
      : undefined;
  const owner = run?.head_repository?.owner?.login;
  if (run && owner && run.head_branch) {
    const found = await github.pullForHead(owner, run.head_branch, sha);
    if (found !== undefined) return found;
  }
  return positiveNumber(summary.pr_number === null ? undefined : String(summary.pr_number));
}

function statusKind(args: ParsedArgs): StatusKind {
  return choice(args.string('status'), STATUS_KINDS, 'status') ?? 'status';
}

function gitlabAuth(args: ParsedArgs, env: Env): GitlabAuth {
  if (args.has('token-env')) {
    const name = args.string('token-env')!;
    const token = firstToken(env, [name]);
    if (!token) throw new UsageError(`no GitLab token: ${name} is not set`, 'comment');
    return { kind: 'private', token };
  }
  const token = firstToken(env, ['MEMTRAIL_GITLAB_TOKEN', 'GITLAB_TOKEN']);
  if (token) return { kind: 'private', token };
  const job = firstToken(env, ['CI_JOB_TOKEN']);
  if (job) return { kind: 'job', token: job };
  throw new UsageError(
    'no GitLab token: set MEMTRAIL_GITLAB_TOKEN to a project access token (api scope), or run in a GitLab CI job',
    'comment',
  );
}

/** A refused job token gets the one remedy that works on every GitLab. */
function explainJobToken(auth: GitlabAuth, error: unknown): never {
  if (
    auth.kind === 'job' &&
    error instanceof RestError &&
    (error.status === 401 || error.status === 403)
  ) {
    throw new RuntimeError(
      `${error.message}: this GitLab does not let CI_JOB_TOKEN write merge-request notes or statuses; set MEMTRAIL_GITLAB_TOKEN to a project access token with the api scope`,
    );
  }
  throw error;
}

async function postGitlab(ctx: Context): Promise<void> {
  const { args, io, sha } = ctx;
  const env = io.env;
  const auth = gitlabAuth(args, env);
  const baseUrl =
    env.CI_API_V4_URL ||
    (env.CI_SERVER_URL ? `${env.CI_SERVER_URL.replace(/\/+$/, '')}/api/v4` : '');
  if (!baseUrl)
    throw new UsageError('set CI_API_V4_URL (GitLab CI sets it) to the GitLab API root', 'comment');
  const project = args.string('repo') ?? env.CI_PROJECT_ID;
  if (!project)
    throw new UsageError('give the GitLab project with --repo (or set CI_PROJECT_ID)', 'comment');
  const gitlab = new GitLab(
    {
      baseUrl,
      auth,
      userAgent: userAgent(env),
      policy: retryPolicyFromEnv(env),
      log: (line) => info(io, line),
    },
    project,
  );
  const first = await ctx.fetch();
  let latest = first;
  try {
    if (!args.flag('no-comment')) {
      const explicit = args.string('pr');
      const iid =
        positiveNumber(explicit) ??
        positiveNumber(env.CI_MERGE_REQUEST_IID) ??
        positiveNumber(first.pr_number === null ? undefined : String(first.pr_number));
      if (explicit !== undefined && positiveNumber(explicit) === undefined) {
        throw new UsageError(`--pr expects a positive number, got '${explicit}'`, 'comment');
      }
      if (iid === undefined) {
        info(io, `${sha.slice(0, 7)} is not in a merge request pipeline: no note posted`);
      } else {
        const thread: CommentThread = gitlab.thread(iid);
        const outcome = await keepSticky(thread, {
          marker: COMMENT_MARKER,
          log: (line) => debug(io, line),
          render: async () => {
            const head = await gitlab.mergeRequestHead(iid);
            if (head && head.toLowerCase() !== sha) {
              return {
                skip: `merge request !${iid} has moved on to ${head.slice(0, 7)}; its own pipeline updates the note`,
              };
            }
            latest = await ctx.fetch();
            return { body: renderWithin(latest, ctx.template, ctx.options, GITLAB_MAX_BODY) };
          },
        });
        io.stderr.write(`${describe(outcome, `merge request !${iid}`)}\n`);
      }
    }
    const kind = statusKind(args);
    if (kind === 'check')
      throw new UsageError('--status check is GitHub only; use status on GitLab', 'comment');
    if (kind === 'status') {
      for (const target of targetsFor(latest, args)) {
        const verdict = verdictOf(target);
        await gitlab.status(sha, verdict);
        io.stderr.write(
          `Status ${verdict.context}: ${stateWord(verdict)} — ${verdict.description}\n`,
        );
      }
    }
  } catch (error) {
    explainJobToken(auth, error);
  }
}

export async function runComment(args: ParsedArgs, io: CliIo): Promise<number> {
  const detected = ciKind(io.env);
  const provider: Provider =
    choice(args.string('provider'), PROVIDERS, 'provider') ??
    (detected === null ? 'print' : detected);
  statusKind(args);
  const template = readTemplate(args, io);
  const options = renderOptions(args);
  const sha = await commitToSummarise(args, io);
  const ctx: Context = {
    args,
    io,
    sha,
    template,
    options,
    fetch: async () =>
      (
        await fetchSummary(
          {
            sha,
            apiUrl: args.string('api-url'),
            apiKeyEnv: args.string('api-key-env'),
            project: args.string('project'),
            command: 'comment',
          },
          io,
        )
      ).data,
  };
  try {
    if (provider === 'print') {
      io.stdout.write(renderSummaryMarkdown(await ctx.fetch(), template, options));
    } else if (provider === 'github') {
      await postGithub(ctx);
    } else {
      await postGitlab(ctx);
    }
  } catch (error) {
    if (error instanceof RestError) throw new RuntimeError(error.message);
    if (error instanceof Error && /unknown template placeholder/.test(error.message)) {
      throw new RuntimeError(`cannot render ${args.string('template')}: ${error.message}`);
    }
    throw error;
  }
  return 0;
}
