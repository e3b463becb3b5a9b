import { git, gitOrNull } from '../git/exec.js';

export interface PlannedCommit {
  sha: string;
  /** The commit this one is compared with; null when it has none. */
  base: string | null;
  /** The base is absent on purpose (first of an explicit list): sent as `parent_commit_hash: null`. */
  explicitNoParent: boolean;
}

export type PlanRequest =
  | { kind: 'history'; count: number; initialCommit?: string }
  | { kind: 'list'; refs: string[]; initialParent?: string };

async function resolveCommit(repo: string, ref: string): Promise<string> {
  const sha = await gitOrNull(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!sha) throw new Error(`'${ref}' is not a commit in ${repo}`);
  return sha;
}

/**
 * The commits to onboard, oldest first. History mode walks the first-parent chain of HEAD (so a
 * merged branch's own commits are not mixed in) and links each commit to its real first parent;
 * list mode keeps the given order and chains each item to the previous one.
 */
export async function planCommits(repo: string, request: PlanRequest): Promise<PlannedCommit[]> {
  if (request.kind === 'list') {
    let previous = request.initialParent ? await resolveCommit(repo, request.initialParent) : null;
    const plan: PlannedCommit[] = [];
    for (const ref of request.refs) {
      const sha = await resolveCommit(repo, ref);
      plan.push({ sha, base: previous, explicitNoParent: previous === null });
      previous = sha;
    }
    return plan;
  }
  const chain = (await git(repo, ['rev-list', '--first-parent', 'HEAD']))
    .split('\n')
    .filter(Boolean);
  let selected: string[];
  if (request.initialCommit) {
    const initial = await resolveCommit(repo, request.initialCommit);
    const index = chain.indexOf(initial);
    if (index < 0)
      throw new Error(`${request.initialCommit} is not on the first-parent history of HEAD`);
    selected = chain
      .slice(0, index + 1)
      .reverse()
      .slice(0, request.count);
  } else {
    selected = chain.slice(0, request.count).reverse();
  }
  return Promise.all(
    selected.map(async (sha) => ({
      sha,
      base: await gitOrNull(repo, ['rev-parse', '--verify', '--quiet', `${sha}~1^{commit}`]),
      explicitNoParent: false,
    })),
  );
}

/** True when the diff from `base` to `sha` touches any of `dirs`. */
export async function touches(
  repo: string,
  base: string,
  sha: string,
  dirs: string[],
): Promise<boolean> {
  const changed = await git(repo, ['diff', '--name-only', base, sha, '--', ...dirs]);
  return changed.trim() !== '';
}
