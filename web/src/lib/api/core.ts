import type { ApiClient } from './client.ts';

// Core service calls of spec §7. Lists and reads fall back to an empty or null value on error
// (spec §8) after logging it; writes rethrow so the caller can show what went wrong.

export interface Project {
  id: string;
  name: string;
  description?: string | null;
  /** Present only on a just-created project, shown once. */
  api_key?: string;
}

export interface Target {
  name: string;
  region_config?: unknown;
}

export interface Head {
  commit_sha: string;
  [field: string]: unknown;
}

export interface CommitPage {
  commits: unknown[];
  pagination: { total_in_chain: number; has_more: boolean };
  chain_summary: { total_commits: number };
}

export const COMMIT_PAGE_SIZE = 50;

const seg = encodeURIComponent;

async function orFallback<T>(what: string, load: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await load();
  } catch (error) {
    console.error(`Fetching ${what} failed`, error);
    return fallback;
  }
}

export function coreApi(api: ApiClient) {
  return {
    /** Unlike the other reads this one throws: the projects list shows its error with Retry. */
    getProjects: async () =>
      (await api.get<{ projects?: Project[] }>('/api/projects'))?.projects ?? [],

    createProject: async (name: string, description: string) =>
      (await api.request<{ project: Project }>('POST', '/api/projects', { name, description }))
        .project,

    deleteProject: (id: string) => api.request<unknown>('DELETE', `/api/projects/${seg(id)}`),

    updateProject: (id: string, fields: Partial<Project>) =>
      api.request<unknown>('PUT', `/api/projects/${seg(id)}`, fields),

    regenerateApiKey: (id: string) =>
      api.request<unknown>('POST', `/api/projects/${seg(id)}/regenerate-api-key`),

    getTargets: (project: string) =>
      orFallback(
        'targets',
        async () =>
          (await api.get<{ targets?: Target[] }>(`/api/${seg(project)}/targets`))?.targets ?? [],
        [] as Target[],
      ),

    getRegionConfig: (project: string, target: string) =>
      orFallback(
        'region config',
        async () =>
          (
            await api.get<{ region_config?: unknown }>(
              `/api/${seg(project)}/${seg(target)}/region-config`,
            )
          )?.region_config ?? null,
        null,
      ),

    updateRegionConfig: (project: string, target: string, regionConfig: unknown) =>
      api.request<unknown>('PUT', `/api/${seg(project)}/${seg(target)}/region-config`, {
        region_config: regionConfig,
      }),

    getHeads: (project: string, target: string) =>
      orFallback(
        'heads',
        async () =>
          (await api.get<{ heads?: Head[] }>(`/api/${seg(project)}/${seg(target)}/heads`))?.heads ??
          [],
        [] as Head[],
      ),

    getCommits: (
      project: string,
      target: string,
      sha: string,
      count = COMMIT_PAGE_SIZE,
      offset = 0,
    ) =>
      orFallback(
        'commits',
        () =>
          api.get<CommitPage>(
            `/api/${seg(project)}/${seg(target)}/commits/${seg(sha)}?count=${count}&offset=${offset}&only_changed=true`,
          ),
        {
          commits: [],
          pagination: { total_in_chain: 0, has_more: false },
          chain_summary: { total_commits: 0 },
        } as CommitPage,
      ),

    getMemoryReport: (project: string, target: string, sha: string) =>
      orFallback(
        'memory report',
        () =>
          api.get<unknown>(
            `/api/${seg(project)}/${seg(target)}/commit/${seg(sha)}?include_symbols=true`,
          ),
        null,
      ),

    getDiff: (project: string, target: string, shaA: string, shaB: string, allSymbols: boolean) =>
      orFallback(
        'memory diff',
        () =>
          api.get<unknown>(
            `/api/${seg(project)}/${seg(target)}/commit/${seg(shaA)}/${seg(shaB)}?all_symbols=${allSymbols}`,
          ),
        null,
      ),
  };
}

export type CoreApi = ReturnType<typeof coreApi>;
