import { relative } from 'node:path';
import { git, gitOrNull } from '../git/exec.js';

export const SUBMODULE_MODES = ['active', 'none', 'all'] as const;
export type SubmoduleMode = (typeof SUBMODULE_MODES)[number];

/** A submodule initialised in the user's checkout, where its objects already are. */
export interface ActiveSubmodule {
  /** Path from the top of the checkout, parents before their nested submodules. */
  path: string;
  /** Its name in the parent's .gitmodules (the key of `submodule.<name>.url`). */
  name: string;
  /** The parent repository's path from the top ('' for the superproject). */
  parent: string;
  /** The submodule's git directory in the user's checkout. */
  gitDir: string;
}

/**
 * The submodules the user's own checkout has initialised, recursively. A project like
 * MicroPython lists dozens of optional submodules; the build needs only those, and their hosts
 * may not even be reachable from this machine.
 */
export async function activeSubmodules(repo: string): Promise<ActiveSubmodule[]> {
  const listed = await git(repo, [
    'submodule',
    'foreach',
    '--quiet',
    '--recursive',
    'printf "%s\\t%s\\t%s\\t%s\\n" "$displaypath" "$name" "$toplevel" "$(git rev-parse --absolute-git-dir)"',
  ]);
  return listed
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [path, name, toplevel, gitDir] = line.split('\t') as [string, string, string, string];
      return { path, name, parent: relative(repo, toplevel), gitDir };
    })
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
}

/**
 * Checks out the submodules of the worktree's commit. `active`: only those in `active`, cloned
 * from the user's checkout with its objects borrowed (alternates), so nothing is fetched;
 * `all`: every submodule from its own URL, recursively (needs access to every host); `none`.
 */
export async function updateSubmodules(
  worktree: string,
  mode: SubmoduleMode,
  active: ActiveSubmodule[],
): Promise<void> {
  if (mode === 'none') return;
  if (mode === 'all') {
    await git(worktree, ['submodule', 'update', '--init', '--recursive', '--quiet']);
    return;
  }
  const skipped = new Set<string>();
  for (const sub of active) {
    const parent = sub.parent ? `${worktree}/${sub.parent}` : worktree;
    const path = relative(sub.parent, sub.path);
    // Absent at this commit (added later, or inside a parent that is): nothing to check out.
    const entry = skipped.has(sub.parent)
      ? ''
      : await gitOrNull(parent, ['ls-files', '--stage', '--', path]);
    if (!entry?.startsWith('160000')) {
      skipped.add(sub.path);
      continue;
    }
    await git(parent, [
      '-c',
      'protocol.file.allow=always',
      '-c',
      `submodule.${sub.name}.url=${sub.gitDir}`,
      'submodule',
      'update',
      '--init',
      '--quiet',
      '--reference',
      sub.gitDir,
      '--',
      path,
    ]);
  }
}
