import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { CommitQuery, NewProject, Project, Target } from './api/core.ts';
import { EMPTY_COMMIT_PAGE } from './api/core.ts';
import type { CommitPage, Head } from './api/queryTypes.ts';
import type { DataKind } from './store/cachePolicy.ts';
import type { LoadOptions } from './store/dataStore.ts';
import { commitsKey, comparisonKey, reportKey } from './store/loaders.ts';
import { headsKey } from './store/maintenance.ts';
import { useProjectContext } from './store/ProjectProvider.tsx';

// React side of the data stores: SWR renders and re-renders, the DataStore decides whether a
// request goes out (lifetimes, caps, forced refresh). A failed read shows its error text and
// the kind's empty fallback (spec §8).

export interface StoredData<T> {
  data: T | undefined;
  error: string | null;
  isLoading: boolean;
  /** Forced refresh: bypasses the cache. */
  refresh(): Promise<unknown>;
}

const swrKey = (kind: DataKind, key: string) => `${kind}|${key}`;

function useStored<T>(
  kind: DataKind,
  key: string | null,
  fetch: (options: LoadOptions) => Promise<T>,
  fallback: T | undefined,
  refreshInterval?: (latest: T | undefined) => number,
  /** Keep showing the previous key's data while another key loads (isLoading says so). */
  keepPreviousData = false,
): StoredData<T> {
  const { store } = useProjectContext();
  const { data, error, isLoading, mutate } = useSWR(
    key === null ? null : swrKey(kind, key),
    () => fetch({}),
    {
      fallbackData: key === null ? undefined : store.get<T>(kind, key)?.data,
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      shouldRetryOnError: false,
      ...(refreshInterval ? { refreshInterval } : {}),
      keepPreviousData,
    },
  );
  const refresh = useCallback(() => mutate(fetch({ force: true })), [mutate, fetch]);
  return {
    data: data ?? (error ? fallback : undefined),
    error: error ? (error instanceof Error ? error.message : String(error)) : null,
    isLoading,
    refresh,
  };
}

export function useProjects(enabled = true) {
  const { load } = useProjectContext();
  const fetch = useCallback((options: LoadOptions) => load.projects(options), [load]);
  // No fallback: a failed projects load shows 'Error: …' with Retry instead of an empty list.
  return useStored<Project[]>('projects', enabled ? 'all' : null, fetch, undefined);
}

/** Create and delete keep the cached list in step without a refetch (spec §4). */
export function useProjectActions() {
  const { store, api, setJustCreated } = useProjectContext();
  const { mutate } = useSWRConfig();

  const writeList = useCallback(
    (next: (projects: Project[]) => Project[]) => {
      const list = next(store.get<Project[]>('projects', 'all')?.data ?? []);
      store.set('projects', 'all', list);
      return mutate(swrKey('projects', 'all'), list, { revalidate: false });
    },
    [store, mutate],
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
      store.invalidate('targets', id);
      store.invalidatePrefix('heads', `${id}:`);
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
  const { load } = useProjectContext();
  const fetch = useCallback(
    (options: LoadOptions) => load.targets(projectId!, options),
    [load, projectId],
  );
  return useStored<Target[]>('targets', projectId ?? null, fetch, []);
}

export function useHeads(projectId: string | undefined, target: string | undefined) {
  const { load } = useProjectContext();
  const fetch = useCallback(
    (options: LoadOptions) => load.heads(projectId!, target!, options),
    [load, projectId, target],
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
  const { load } = useProjectContext();
  const { count, offset, onlyChanged } = query;
  const fetch = useCallback(
    (options: LoadOptions) =>
      load.commits(projectId, target, sha!, { count, offset, onlyChanged }, options),
    [load, projectId, target, sha, count, offset, onlyChanged],
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
  const { load } = useProjectContext();
  const fetch = useCallback(
    (options: LoadOptions) => load.memoryReport(projectId, target, sha!, options) as Promise<T>,
    [load, projectId, target, sha],
  );
  return useStored<T | null>(
    'memoryReports',
    sha ? reportKey(projectId, target, sha) : null,
    fetch,
    null,
    // Poll while the report is still being ingested.
    (latest) =>
      (latest as { report?: { status?: string } } | null)?.report?.status === 'pending' ? 3000 : 0,
  );
}

export function useCommitMessage(projectId: string, target: string, sha: string | undefined) {
  const { load } = useProjectContext();
  const fetch = useCallback(
    () => load.commitMessage(projectId, target, sha!),
    [load, projectId, target, sha],
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
  const { load } = useProjectContext();
  const fetch = useCallback(
    (options: LoadOptions) =>
      load.comparison(projectId, target, base!, head!, allSymbols, options, zeroSize) as Promise<T>,
    [load, projectId, target, base, head, allSymbols, zeroSize],
  );
  return useStored<T | null>(
    'comparisons',
    base && head ? comparisonKey(projectId, target, base, head, allSymbols, zeroSize) : null,
    fetch,
    null,
    undefined,
    // A switched filter (0-byte changes) keeps the page in place while it reloads.
    true,
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
