import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CommitQuery, NewProject, Project, Target } from './api/core.ts';
import { EMPTY_COMMIT_PAGE } from './api/core.ts';
import type { CommitPage, Head, RegionSeriesData } from './api/queryTypes.ts';
import { cacheKey, commitsKey, comparisonKey, headsKey, reportKey } from './store/cacheKeys.ts';
import { isPendingReport, type DataKind } from './store/cachePolicy.ts';
import { useProjectContext } from './store/projectContext.ts';

// The data kinds' hooks (spec §4) over SWR and its cache (store/dataCache.ts), whose lifetimes
// decide whether mounting a hook asks the server. Each hook has its loading flag and error
// text; a load that starts clears the previous error. A failed read shows its error text and
// the kind's empty fallback (spec §8). A forced refresh stores what it fetched, or rethrows.

export interface StoredData<T> {
  data: T | undefined;
  error: string | null;
  isLoading: boolean;
  /** Forced refresh: bypasses the cache. */
  refresh(): Promise<unknown>;
}

interface StoredOptions<T> {
  /** Poll every returned number of milliseconds (0: stop). */
  refreshInterval?: (latest: T | undefined) => number;
  /** Keep showing the previous key's data while another key loads (isLoading says so). */
  keepPreviousData?: boolean;
}

function useStored<T>(
  kind: DataKind,
  key: string | null,
  /** Stable (useCallback): the forced refresh calls it. */
  fetch: () => Promise<T>,
  fallback: T | undefined,
  options: StoredOptions<T> = {},
): StoredData<T> {
  const { data, error, isLoading, isValidating, mutate } = useSWR(
    key === null ? null : cacheKey(kind, key),
    fetch,
    {
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      shouldRetryOnError: false,
      ...options,
    },
  );
  // The fetch itself, not SWR's revalidation: an error screen's Retry runs it while the hook
  // that failed is not mounted, and revalidation needs a mounted hook.
  const refresh = useCallback(() => mutate(fetch(), { revalidate: false }), [mutate, fetch]);
  const failed = error !== undefined && !isValidating;
  return {
    data: data ?? (failed ? fallback : undefined),
    error: failed ? (error instanceof Error ? error.message : String(error)) : null,
    isLoading,
    refresh,
  };
}

export function useProjects(enabled = true) {
  const { fetchers } = useProjectContext();
  // No fallback: a failed projects load shows 'Error: …' with Retry instead of an empty list.
  return useStored<Project[]>('projects', enabled ? 'all' : null, fetchers.projects, undefined);
}

/** Create and delete keep the cached list in step without a refetch (spec §4). */
export function useProjectActions() {
  const { cache, api, setJustCreated } = useProjectContext();
  const { mutate } = useSWRConfig();

  const writeList = useCallback(
    (next: (projects: Project[]) => Project[]) =>
      mutate<Project[]>(cacheKey('projects', 'all'), (projects) => next(projects ?? []), {
        revalidate: false,
      }),
    [mutate],
  );

  return {
    async createProject(
      name: string,
      description: string,
      organizationId?: string | null,
    ): Promise<NewProject> {
      const project = await api.createProject(name, description, organizationId);
      await writeList((projects) => [...projects, project]);
      if (project.api_key) setJustCreated(project);
      return project;
    },
    async deleteProject(id: string) {
      await api.deleteProject(id);
      await writeList((projects) => projects.filter((project) => project.id !== id));
      cache.invalidate('targets', id);
      cache.invalidatePrefix('heads', `${id}:`);
    },
    async updateProject(id: string, fields: { name?: string; description?: string | null }) {
      const updated = await api.updateProject(id, fields);
      await writeList((projects) =>
        projects.map((project) => (project.id === id ? { ...project, ...updated } : project)),
      );
      return updated;
    },
    async setFavourite(id: string, favourite: boolean) {
      await api.setProjectFavourite(id, favourite);
      await writeList((projects) =>
        projects.map((project) => (project.id === id ? { ...project, favourite } : project)),
      );
    },
    clearJustCreated: () => setJustCreated(null),
  };
}

export function useTargets(projectId: string | undefined) {
  const { fetchers } = useProjectContext();
  const fetch = useCallback(() => fetchers.targets(projectId!), [fetchers, projectId]);
  return useStored<Target[]>('targets', projectId ?? null, fetch, []);
}

export function useHeads(projectId: string | undefined, target: string | undefined) {
  const { fetchers } = useProjectContext();
  const fetch = useCallback(
    () => fetchers.heads(projectId!, target!),
    [fetchers, projectId, target],
  );
  return useStored<Head[]>(
    'heads',
    projectId && target ? headsKey(projectId, target) : null,
    fetch,
    [],
  );
}

export function useCommits(
  projectId: string,
  target: string,
  sha: string | undefined,
  query: CommitQuery,
) {
  const { fetchers } = useProjectContext();
  const { count, offset, onlyChanged } = query;
  const fetch = useCallback(
    () => fetchers.commits(projectId, target, sha!, { count, offset, onlyChanged }),
    [fetchers, projectId, target, sha, count, offset, onlyChanged],
  );
  return useStored<CommitPage>(
    'commits',
    sha ? commitsKey(projectId, target, sha, query) : null,
    fetch,
    EMPTY_COMMIT_PAGE,
  );
}

export function useMemoryReport<T = unknown>(
  projectId: string,
  target: string,
  sha: string | undefined,
) {
  const { fetchers } = useProjectContext();
  const fetch = useCallback(
    () => fetchers.memoryReport(projectId, target, sha!) as Promise<T>,
    [fetchers, projectId, target, sha],
  );
  return useStored<T | null>(
    'memoryReports',
    sha ? reportKey(projectId, target, sha) : null,
    fetch,
    null,
    // Poll while the report is still being ingested.
    { refreshInterval: (latest) => (isPendingReport(latest) ? 3000 : 0) },
  );
}

export function useCommitMessage(projectId: string, target: string, sha: string | undefined) {
  const { fetchers } = useProjectContext();
  const fetch = useCallback(
    () => fetchers.commitMessage(projectId, target, sha!),
    [fetchers, projectId, target, sha],
  );
  return useStored<string>(
    'commitMessages',
    sha ? reportKey(projectId, target, sha) : null,
    fetch,
    '',
  );
}

export function useComparison<T = unknown>(
  projectId: string,
  target: string,
  base: string | undefined,
  head: string | undefined,
  allSymbols: boolean,
  zeroSize = false,
) {
  const { fetchers } = useProjectContext();
  const fetch = useCallback(
    () => fetchers.comparison(projectId, target, base!, head!, allSymbols, zeroSize) as Promise<T>,
    [fetchers, projectId, target, base, head, allSymbols, zeroSize],
  );
  return useStored<T | null>(
    'comparisons',
    base && head ? comparisonKey(projectId, target, base, head, allSymbols, zeroSize) : null,
    fetch,
    null,
    // A switched filter (0-byte changes) keeps the page in place while it reloads.
    { keepPreviousData: true },
  );
}

/** Query-service reads outside the spec's store kinds (series, treemap, history): SWR only. */
export function useTargetResource<T>(projectId: string, target: string, resource: string | null) {
  const { api } = useProjectContext();
  const { data, error, isLoading } = useSWR(
    resource === null ? null : ['resource', projectId, target, resource],
    () => api.getTargetResource<T>(projectId, target, resource!),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  return {
    data,
    error: error ? (error instanceof Error ? error.message : String(error)) : null,
    isLoading,
  };
}

/** Commits of a branch shown in series: the newest this many. */
export const SERIES_LIMIT = 5000;

/**
 * A branch's region series: the dashboard's chart, and the commits (subject, time) that symbol
 * histories name by SHA only — one read for both.
 */
export function useBranchSeries(projectId: string, target: string, branch: string | undefined) {
  return useTargetResource<RegionSeriesData>(
    projectId,
    target,
    branch ? `series/regions?branch=${encodeURIComponent(branch)}&limit=${SERIES_LIMIT}` : null,
  );
}
