import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { git } from '../git/exec.js';
import { updateSubmodules, type ActiveSubmodule, type SubmoduleMode } from './submodules.js';

/**
 * A detached worktree where onboarding checks out and builds each commit, so the user's own
 * checkout (its branch, uncommitted changes and build directories) is never touched. It is reused
 * across commits and runs, which keeps incremental builds fast.
 */
export class BuildWorktree {
  private constructor(
    readonly repo: string,
    readonly path: string,
  ) {}

  static async open(repo: string, path: string, owned: boolean): Promise<BuildWorktree> {
    const target = resolve(path);
    await git(repo, ['worktree', 'prune']);
    const listed = await git(repo, ['worktree', 'list', '--porcelain']);
    const registered = listed.split('\n').some((line) => line === `worktree ${target}`);
    if (!registered && existsSync(target)) {
      if (!owned)
        throw new Error(
          `${target} exists and is not a worktree of ${repo}; choose another --worktree-dir`,
        );
      // Our own cache directory left behind by an interrupted run without git's registration.
      rmSync(target, { recursive: true, force: true });
    }
    if (!registered) await git(repo, ['worktree', 'add', '--detach', '--quiet', target, 'HEAD']);
    return new BuildWorktree(repo, target);
  }

  async checkout(
    sha: string,
    clean: boolean,
    submodules: { mode: SubmoduleMode; active: ActiveSubmodule[] },
  ): Promise<void> {
    await git(this.path, ['checkout', '--detach', '--force', '--quiet', sha]);
    if (clean) await git(this.path, ['clean', '-ffdxq']);
    if (existsSync(resolve(this.path, '.gitmodules'))) {
      await updateSubmodules(this.path, submodules.mode, submodules.active);
    }
  }

  async remove(): Promise<void> {
    await git(this.repo, ['worktree', 'remove', '--force', this.path]);
  }
}
