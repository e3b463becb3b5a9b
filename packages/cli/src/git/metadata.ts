import type { GitMetadata } from '@memtrail/contracts';
import { detectCi, GENERIC_ENV, type CiKind, type Env } from './ci.js';
import { gitOrNull } from './exec.js';
import { commitDetails, detectLocalGit } from './local.js';
import { splitWords } from '../args.js';

export interface GitOptions {
  cwd: string;
  env: Env;
  /** Values given on the command line; they always win. */
  explicit: GitMetadata;
  /** `--base-sha none` or `--base-sha ''`: the commit explicitly has no parent. */
  noParent: boolean;
  /** `--no-git`: send only the explicit values. */
  noGit: boolean;
}

export interface DetectedGit {
  git: GitMetadata;
  ci: CiKind;
}

const GIT_KEYS = [
  'commit_hash',
  'base_commit_hash',
  'branch_name',
  'repository',
  'commit_message',
  'commit_timestamp',
  'author_name',
  'author_email',
  'pr_number',
  'pr_name',
  'pr_author_name',
  'pr_author_email',
] as const;

function defined(record: GitMetadata): GitMetadata {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

function fromGenericEnv(env: Env): GitMetadata {
  const git: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(GENERIC_ENV)) {
    const value = env[name];
    if (value === undefined || value.trim() === '') continue;
    git[key] = key === 'tags' ? splitWords([value]) : value;
  }
  return git as GitMetadata;
}

/**
 * When a later source names a different commit than HEAD, the facts read for HEAD (message,
 * author, parent) belong to the wrong commit: read them again for the named commit, or drop them
 * when that commit is not in the local clone.
 */
async function describeCommit(cwd: string, git: GitMetadata, sha: string): Promise<GitMetadata> {
  const details = await commitDetails(cwd, sha);
  const parent = await gitOrNull(cwd, ['rev-parse', '--verify', '--quiet', `${sha}~1^{commit}`]);
  return { ...git, ...details, commit_hash: sha, base_commit_hash: parent };
}

/**
 * Git metadata for an upload: local git, then the CI environment (GitHub Actions event payload,
 * GitLab CI variables), then the generic MEMTRAIL_* variables, then explicit flags.
 */
export async function detectGit(options: GitOptions): Promise<DetectedGit> {
  const explicit = defined(options.explicit);
  let git: GitMetadata = {};
  let ci: CiKind = null;
  if (!options.noGit) {
    git = await detectLocalGit(options.cwd);
    const facts = detectCi(options.env);
    ci = facts.kind;
    const ciCommit = facts.git.commit_hash;
    if (ciCommit && ciCommit !== git.commit_hash)
      git = await describeCommit(options.cwd, git, ciCommit);
    git = { ...git, ...facts.git };
    const generic = fromGenericEnv(options.env);
    if (generic.commit_hash && generic.commit_hash !== git.commit_hash) {
      git = await describeCommit(options.cwd, git, generic.commit_hash);
    }
    git = { ...git, ...generic };
    if (explicit.commit_hash && explicit.commit_hash !== git.commit_hash) {
      git = await describeCommit(options.cwd, git, explicit.commit_hash);
    }
    // Detected uploads always carry every key, null when unknown (never invented placeholders).
    git.tags ??= [];
    for (const key of GIT_KEYS) git[key] ??= null;
  }
  git = { ...git, ...explicit };
  if (options.noParent) {
    git.base_commit_hash = null;
    git.parent_commit_hash = null;
  }
  return { git, ci };
}
