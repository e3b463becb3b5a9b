import type { CommitQuery, CoreApi } from '../api/core.ts';
import { trackBackgroundLoad } from '../backgroundLoads.ts';
import { STORE_MESSAGES } from './cachePolicy.ts';
import type { DataStore, LoadOptions } from './dataStore.ts';
import { headsKey } from './maintenance.ts';

// One loader per data kind: the cache key it uses and the call behind it. Targets, heads and
// memory reports show the global loading bar while they load (spec §2).

export const commitsKey = (
  projectId: string,
  target: string,
  sha: string,
  { count = 50, offset = 0, onlyChanged = true }: CommitQuery = {},
) => `${projectId}:${target}:${sha}:${count}:${offset}:${onlyChanged ? 'changed' : 'all'}`;

export const reportKey = (projectId: string, target: string, sha: string) =>
  `${projectId}:${target}:${sha}`;

export const comparisonKey = (
  projectId: string,
  target: string,
  base: string,
  head: string,
  allSymbols: boolean,
  zeroSize = false,
) =>
  `${projectId}:${target}:${base}:${head}:${allSymbols ? 'all' : 'changed'}${zeroSize ? ':zero' : ''}`;

export function createLoaders(store: DataStore, api: CoreApi) {
  /** The target a report or message belongs to: the given one or the project's first. */
  async function targetOf(projectId: string, target: string | undefined) {
    if (target) return target;
    const targets = await loaders.targets(projectId);
    const first = targets[0]?.name;
    if (!first) throw new Error(STORE_MESSAGES.noTargets);
    return first;
  }

  const loaders = {
    projects: (options?: LoadOptions) => store.load('projects', 'all', api.getProjects, options),

    targets: (projectId: string, options?: LoadOptions) =>
      store.load(
        'targets',
        projectId,
        () => trackBackgroundLoad(() => api.getTargets(projectId)),
        options,
      ),

    heads: (projectId: string, target: string, options?: LoadOptions) =>
      store.load(
        'heads',
        headsKey(projectId, target),
        () => trackBackgroundLoad(() => api.getHeads(projectId, target)),
        options,
      ),

    commits: (
      projectId: string,
      target: string,
      sha: string,
      query?: CommitQuery,
      options?: LoadOptions,
    ) =>
      store.load(
        'commits',
        commitsKey(projectId, target, sha, query),
        () => api.getCommits(projectId, target, sha, query),
        options,
      ),

    memoryReport: async (
      projectId: string,
      target: string | undefined,
      sha: string,
      options?: LoadOptions,
    ) => {
      const name = await targetOf(projectId, target);
      const key = reportKey(projectId, name, sha);
      const report = await store.load(
        'memoryReports',
        key,
        // Symbols come a page at a time (useSymbolPages): a 40k-symbol report in one answer
        // is megabytes the commit page would wait for.
        () => trackBackgroundLoad(() => api.getMemoryReport(projectId, name, sha, false)),
        options,
      );
      // Reports never expire, so one still being ingested must not stay cached as final.
      if ((report as { report?: { status?: string } } | null)?.report?.status === 'pending') {
        store.invalidate('memoryReports', key);
      }
      return report;
    },

    /** The commit message, from the memory report's commit field (spec §3). */
    commitMessage: async (projectId: string, target: string | undefined, sha: string) => {
      const name = await targetOf(projectId, target);
      return store.load('commitMessages', reportKey(projectId, name, sha), async () => {
        const report = (await api.getMemoryReport(projectId, name, sha, false)) as {
          commit?: { message?: string | null };
        } | null;
        return report?.commit?.message ?? '';
      });
    },

    comparison: (
      projectId: string,
      target: string,
      base: string,
      head: string,
      allSymbols: boolean,
      options?: LoadOptions,
      zeroSize = false,
    ) =>
      store.load(
        'comparisons',
        comparisonKey(projectId, target, base, head, allSymbols, zeroSize),
        () => api.getDiff(projectId, target, base, head, allSymbols, zeroSize),
        options,
      ),
  };
  return loaders;
}

export type Loaders = ReturnType<typeof createLoaders>;
