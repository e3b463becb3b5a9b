import type { CommitQuery, CoreApi } from '../api/core.ts';
import { trackBackgroundLoad } from '../backgroundLoads.ts';
import { STORE_MESSAGES } from './cachePolicy.ts';

// The call behind each data kind; SWR caches what they return. Targets, heads and memory
// reports show the global loading bar while they load (spec §2).

export function createFetchers(api: CoreApi) {
  /** The target a report or message belongs to: the given one or the project's first. */
  async function targetOf(projectId: string, target: string | undefined) {
    if (target) return target;
    const targets = await fetchers.targets(projectId);
    const first = targets[0]?.name;
    if (!first) throw new Error(STORE_MESSAGES.noTargets);
    return first;
  }

  const fetchers = {
    projects: () => api.getProjects(),

    targets: (projectId: string) => trackBackgroundLoad(() => api.getTargets(projectId)),

    heads: (projectId: string, target: string) =>
      trackBackgroundLoad(() => api.getHeads(projectId, target)),

    commits: (projectId: string, target: string, sha: string, query?: CommitQuery) =>
      api.getCommits(projectId, target, sha, query),

    memoryReport: async (projectId: string, target: string | undefined, sha: string) => {
      const name = await targetOf(projectId, target);
      // Symbols come a page at a time (useSymbolPages): a 40k-symbol report in one answer
      // is megabytes the commit page would wait for.
      return trackBackgroundLoad(() => api.getMemoryReport(projectId, name, sha, false));
    },

    /** The commit message, from the memory report's commit field (spec §3). */
    commitMessage: async (projectId: string, target: string | undefined, sha: string) => {
      const name = await targetOf(projectId, target);
      const report = (await api.getMemoryReport(projectId, name, sha, false)) as {
        commit?: { message?: string | null };
      } | null;
      return report?.commit?.message ?? '';
    },

    comparison: (
      projectId: string,
      target: string,
      base: string,
      head: string,
      allSymbols: boolean,
      zeroSize = false,
    ) => api.getDiff(projectId, target, base, head, allSymbols, zeroSize),
  };
  return fetchers;
}

export type Fetchers = ReturnType<typeof createFetchers>;
