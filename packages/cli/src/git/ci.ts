import { readFileSync } from 'node:fs';
import type { GitMetadata } from '@memtrail/contracts';

export type Env = Record<string, string | undefined>;

export type CiKind = 'github' | 'gitlab' | null;

/** What a CI environment says about the build, applied over local git facts. */
export interface CiFacts {
  kind: CiKind;
  git: GitMetadata;
  /** The commit whose message/author must be re-read when CI names a different commit than HEAD. */
  commitToDescribe?: string;
}

/** A usable base commit: 40 hex digits and not the all-zero "no previous commit" marker. */
export function isRealSha(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{40}$/i.test(value) && !/^0+$/.test(value);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function drop<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

export function ciKind(env: Env): CiKind {
  if (env.GITHUB_ACTIONS === 'true') return 'github';
  if (env.GITLAB_CI === 'true') return 'gitlab';
  return null;
}

interface GithubUser {
  login?: string;
}
export interface GithubEvent {
  before?: string;
  pull_request?: {
    number?: number;
    title?: string;
    user?: GithubUser;
    head?: { sha?: string; ref?: string; repo?: { full_name?: string } | null };
    base?: { sha?: string; repo?: { full_name?: string } };
  };
  workflow_run?: {
    head_sha?: string;
    head_branch?: string;
    head_repository?: { full_name?: string; owner?: GithubUser };
    pull_requests?: Array<{ number?: number; base?: { sha?: string } }>;
  };
}

export function readEvent(path: string | undefined): GithubEvent {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as GithubEvent;
  } catch (error) {
    throw new Error(
      `cannot read the GitHub event payload GITHUB_EVENT_PATH=${path}: ${(error as Error).message}`,
    );
  }
}

/**
 * A fork's branch as GitHub writes it, `owner:branch`: a fork's `main` is not this repository's
 * `main`, and recording it as such would move that branch's history to the fork's commit.
 */
function headBranch(
  branch: string | undefined,
  headRepo: string | undefined,
  baseRepo: string | undefined,
): string | undefined {
  if (!branch || !headRepo || !baseRepo || headRepo === baseRepo) return branch;
  return `${headRepo.split('/')[0]}:${branch}`;
}

/**
 * GitHub Actions: `GITHUB_SHA` is a merge commit on pull requests and the default-branch tip on
 * workflow_run, so the event payload is the source of truth for the commit, branch and base.
 */
export function detectGithub(env: Env): CiFacts {
  const event = readEvent(nonEmpty(env.GITHUB_EVENT_PATH));
  const name = env.GITHUB_EVENT_NAME ?? '';
  const git: GitMetadata = drop({
    commit_hash: nonEmpty(env.GITHUB_SHA),
    branch_name: nonEmpty(env.GITHUB_HEAD_REF) ?? nonEmpty(env.GITHUB_REF_NAME),
    repository: nonEmpty(env.GITHUB_REPOSITORY),
  });
  const pr = event.pull_request;
  if ((name === 'pull_request' || name === 'pull_request_target') && pr) {
    Object.assign(
      git,
      drop({
        commit_hash: pr.head?.sha,
        branch_name: headBranch(
          pr.head?.ref,
          pr.head?.repo?.full_name,
          pr.base?.repo?.full_name ?? nonEmpty(env.GITHUB_REPOSITORY),
        ),
        base_commit_hash: isRealSha(pr.base?.sha) ? pr.base.sha : undefined,
        pr_number: pr.number !== undefined ? String(pr.number) : undefined,
        pr_name: pr.title,
        pr_author_name: pr.user?.login,
      }),
    );
  } else if (name === 'push' && isRealSha(event.before)) {
    // The previous tip of the branch, so a multi-commit push links to the last built commit.
    git.base_commit_hash = event.before;
  } else if (name === 'workflow_run' && event.workflow_run) {
    const run = event.workflow_run;
    const runPr = run.pull_requests?.[0];
    Object.assign(
      git,
      drop({
        commit_hash: run.head_sha,
        branch_name: headBranch(
          run.head_branch,
          run.head_repository?.full_name,
          nonEmpty(env.GITHUB_REPOSITORY),
        ),
        pr_number: runPr?.number !== undefined ? String(runPr.number) : undefined,
        base_commit_hash: isRealSha(runPr?.base?.sha) ? runPr.base.sha : undefined,
      }),
    );
  }
  return { kind: 'github', git, commitToDescribe: git.commit_hash ?? undefined };
}

/** `Name <email>` as GitLab writes CI_COMMIT_AUTHOR. */
function splitAuthor(value: string | undefined): { name?: string; email?: string } {
  if (!value) return {};
  const match = /^(.*?)\s*<([^>]*)>\s*$/.exec(value);
  return match ? { name: match[1], email: match[2] } : { name: value };
}

export function detectGitlab(env: Env): CiFacts {
  const mr = nonEmpty(env.CI_MERGE_REQUEST_IID);
  const author = splitAuthor(env.CI_COMMIT_AUTHOR);
  const base = mr ? env.CI_MERGE_REQUEST_DIFF_BASE_SHA : env.CI_COMMIT_BEFORE_SHA;
  const git: GitMetadata = drop({
    commit_hash: nonEmpty(env.CI_COMMIT_SHA),
    base_commit_hash: isRealSha(base) ? base : undefined,
    branch_name:
      nonEmpty(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? nonEmpty(env.CI_COMMIT_REF_NAME),
    repository: nonEmpty(env.CI_PROJECT_PATH),
    commit_message: nonEmpty(env.CI_COMMIT_MESSAGE),
    commit_timestamp: nonEmpty(env.CI_COMMIT_TIMESTAMP),
    author_name: author.name,
    author_email: author.email,
    tags: nonEmpty(env.CI_COMMIT_TAG) ? [env.CI_COMMIT_TAG!] : undefined,
    pr_number: mr,
    pr_name: mr ? nonEmpty(env.CI_MERGE_REQUEST_TITLE) : undefined,
    pr_author_name: mr ? nonEmpty(env.GITLAB_USER_LOGIN) : undefined,
    pr_author_email: mr ? nonEmpty(env.GITLAB_USER_EMAIL) : undefined,
  });
  return { kind: 'gitlab', git, commitToDescribe: git.commit_hash ?? undefined };
}

export function detectCi(env: Env): CiFacts {
  switch (ciKind(env)) {
    case 'github':
      return detectGithub(env);
    case 'gitlab':
      return detectGitlab(env);
    default:
      return { kind: null, git: {} };
  }
}

/** Names of the generic variables any CI (Jenkins, Buildkite, a shell script) can set. */
export const GENERIC_ENV: Record<string, keyof GitMetadata> = {
  MEMTRAIL_COMMIT_SHA: 'commit_hash',
  MEMTRAIL_BASE_SHA: 'base_commit_hash',
  MEMTRAIL_BRANCH_NAME: 'branch_name',
  MEMTRAIL_REPO_NAME: 'repository',
  MEMTRAIL_COMMIT_MESSAGE: 'commit_message',
  MEMTRAIL_COMMIT_TIMESTAMP: 'commit_timestamp',
  MEMTRAIL_AUTHOR_NAME: 'author_name',
  MEMTRAIL_AUTHOR_EMAIL: 'author_email',
  MEMTRAIL_PR_NUMBER: 'pr_number',
  MEMTRAIL_PR_NAME: 'pr_name',
  MEMTRAIL_PR_AUTHOR_NAME: 'pr_author_name',
  MEMTRAIL_PR_AUTHOR_EMAIL: 'pr_author_email',
  MEMTRAIL_TAGS: 'tags',
};
