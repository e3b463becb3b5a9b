import type { GitMetadata } from '@memtrail/contracts';
import { gitOrNull } from './exec.js';

/**
 * `owner/name` (or `group/sub/name` on GitLab) from a remote URL. Handles https, ssh:// and
 * scp-like `git@host:owner/name.git` forms; only an exact `.git` suffix is removed, so names
 * ending in `g`, `i` or `t` keep their letters.
 */
export function repositoryFromRemote(url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === '') return null;
  let path: string;
  const local = /^file:\/\//i.test(trimmed) || !/[:@]/.test(trimmed);
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(trimmed);
  const scpLike = /^(?:[^@/]+@)?[^:/]+:(?!\/)(.+)$/.exec(trimmed);
  if (local) {
    // A local path remote: only its last component names the repository.
    path = trimmed.split(/[\\/]/).filter(Boolean).pop() ?? '';
  } else if (scheme) {
    path = scheme[1] ?? '';
  } else if (scpLike) {
    path = scpLike[1]!;
  } else {
    return null;
  }
  const cleaned = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .replace(/^~[^/]*\//, '');
  return cleaned === '' ? null : cleaned;
}

/** The commit facts `git log` knows for one commit; nulls when the commit is not available. */
export async function commitDetails(
  cwd: string,
  sha: string,
): Promise<
  Pick<GitMetadata, 'commit_message' | 'commit_timestamp' | 'author_name' | 'author_email' | 'tags'>
> {
  // NUL separators: messages may contain any printable character.
  const raw = await gitOrNull(cwd, ['log', '-1', '--format=%cI%x00%an%x00%ae%x00%B', sha, '--']);
  const tags = await gitOrNull(cwd, ['tag', '--points-at', sha]);
  if (raw === null) {
    return {
      commit_message: null,
      commit_timestamp: null,
      author_name: null,
      author_email: null,
      tags: [],
    };
  }
  const [timestamp, name, email, ...message] = raw.split('\0');
  return {
    commit_timestamp: timestamp ?? null,
    author_name: name ?? null,
    author_email: email ?? null,
    commit_message: message.join('\0').trim(),
    tags: tags ? tags.split('\n').filter(Boolean) : [],
  };
}

/** Everything plain git can tell about HEAD in `cwd`; empty when `cwd` is not in a repository. */
export async function detectLocalGit(cwd: string): Promise<GitMetadata> {
  const head = await gitOrNull(cwd, ['rev-parse', '--verify', 'HEAD^{commit}']);
  if (head === null) return {};
  const [parent, branch, pointing, remote, details] = await Promise.all([
    gitOrNull(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD~1^{commit}']),
    gitOrNull(cwd, ['symbolic-ref', '--short', '-q', 'HEAD']),
    gitOrNull(cwd, ['branch', '--points-at', 'HEAD', '--format=%(refname:short)']),
    gitOrNull(cwd, ['config', '--get', 'remote.origin.url']),
    commitDetails(cwd, head),
  ]);
  // A detached HEAD (typical in CI) still belongs to a branch when one points at it.
  const pointingBranch = pointing
    ?.split('\n')
    .map((b) => b.trim())
    .find((b) => b !== '' && !b.startsWith('('));
  return {
    commit_hash: head,
    base_commit_hash: parent,
    branch_name: branch || pointingBranch || null,
    repository: remote ? repositoryFromRemote(remote) : null,
    ...details,
  };
}
