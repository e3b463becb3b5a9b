import type {
  BudgetInput,
  CreatedProjectData,
  Project,
  RegionConfig,
  Target,
  UpdatePublicAccessRequest,
} from '@memtrail/contracts';
import type { ApiClient } from './client.ts';
import type { CommitPage } from './queryTypes.ts';

// Core service calls of spec §7 plus the project settings calls (budgets, members), each an
// operation of @memtrail/contracts typed by its schemas. Every call here throws; the data stores
// record the message per data kind and the hooks fall back to an empty or null value (spec §8),
// while writes reach the form that made them.

export type { Project, Target };
export type NewProject = CreatedProjectData['project'];

export const COMMIT_PAGE_SIZE = 50;

const seg = encodeURIComponent;
const targetPath = (project: string, target: string) => `/api/${seg(project)}/${seg(target)}`;

export interface CommitQuery {
  count?: number;
  offset?: number;
  onlyChanged?: boolean;
}

export function coreApi(api: ApiClient) {
  const at = (project: string, target: string) => ({ project, target });
  return {
    api,
    getProjects: async () => (await api.call('GET /api/projects'))?.projects ?? [],

    /** In the organisation chosen in the header, else the user's personal one. */
    createProject: async (name: string, description: string, organizationId?: string | null) =>
      (
        await api.call('POST /api/projects', {
          body: {
            name,
            description,
            ...(organizationId ? { organization_id: organizationId } : {}),
          },
        })
      ).project,

    setProjectFavourite: (id: string, favourite: boolean) =>
      api.call(
        favourite ? 'PUT /api/projects/{id}/favourite' : 'DELETE /api/projects/{id}/favourite',
        {
          path: { id },
        },
      ),

    deleteProject: (id: string) => api.call('DELETE /api/projects/{id}', { path: { id } }),

    updateProject: async (id: string, fields: { name?: string; description?: string | null }) =>
      (await api.call('PUT /api/projects/{id}', { path: { id }, body: fields })).project,

    regenerateApiKey: (id: string) =>
      api.call('POST /api/projects/{id}/regenerate-api-key', { path: { id } }),

    getMembers: async (id: string) =>
      (await api.call('GET /api/projects/{id}/members', { path: { id } })).members,

    addMember: async (id: string, email: string) =>
      (await api.call('POST /api/projects/{id}/members', { path: { id }, body: { email } }))
        .members,

    removeMember: async (id: string, userId: string) =>
      (await api.call('DELETE /api/projects/{id}/members/{userId}', { path: { id, userId } }))
        .members,

    /** A public project as anyone sees it; throws (404) for any other. */
    getPublicProject: async (id: string) =>
      (await api.call('GET /api/public/projects/{id}', { path: { id } })).project,

    getPublicAccess: (id: string) =>
      api.call('GET /api/projects/{id}/public-access', { path: { id } }),

    updatePublicAccess: (id: string, change: UpdatePublicAccessRequest) =>
      api.call('PUT /api/projects/{id}/public-access', { path: { id }, body: change }),

    getTargets: async (project: string) =>
      (await api.call('GET /api/{project}/targets', { path: { project } }))?.targets ?? [],

    getRegionConfig: async (project: string, target: string) =>
      (await api.call('GET /api/{project}/{target}/region-config', { path: at(project, target) }))
        ?.region_config ?? null,

    /** The same call, whole: the configuration and every region the reports have had. */
    getRegionSettings: (project: string, target: string) =>
      api.call('GET /api/{project}/{target}/region-config', { path: at(project, target) }),

    updateRegionConfig: (project: string, target: string, regionConfig: RegionConfig) =>
      api.call('PUT /api/{project}/{target}/region-config', {
        path: at(project, target),
        body: { region_config: regionConfig },
      }),

    getBudgets: async (project: string, target: string) =>
      (await api.call('GET /api/{project}/{target}/budgets', { path: at(project, target) }))
        .budgets,

    createBudget: async (project: string, target: string, input: BudgetInput) =>
      (
        await api.call('POST /api/{project}/{target}/budgets', {
          path: at(project, target),
          body: input,
        })
      ).budget,

    updateBudget: async (project: string, target: string, id: string, input: BudgetInput) =>
      (
        await api.call('PUT /api/{project}/{target}/budgets/{id}', {
          path: { ...at(project, target), id },
          body: input,
        })
      ).budget,

    deleteBudget: (project: string, target: string, id: string) =>
      api.call('DELETE /api/{project}/{target}/budgets/{id}', {
        path: { ...at(project, target), id },
      }),

    getHeads: async (project: string, target: string) =>
      (await api.call('GET /api/{project}/{target}/heads', { path: at(project, target) }))?.heads ??
      [],

    getCommits: (project: string, target: string, sha: string, query: CommitQuery = {}) => {
      const { count = COMMIT_PAGE_SIZE, offset = 0, onlyChanged = true } = query;
      return api.call('GET /api/{project}/{target}/commits/{sha}', {
        path: { ...at(project, target), sha },
        query: { count, offset, ...(onlyChanged && { only_changed: true }) },
      });
    },

    getMemoryReport: (project: string, target: string, sha: string, includeSymbols = true) =>
      api.call('GET /api/{project}/{target}/commit/{sha}', {
        path: { ...at(project, target), sha },
        query: includeSymbols ? { include_symbols: true } : {},
      }),

    /** `zeroSize`: also the changes of 0-byte symbols (LTO markers), hidden by default. */
    getDiff: (
      project: string,
      target: string,
      shaA: string,
      shaB: string,
      allSymbols: boolean,
      zeroSize = false,
    ) =>
      api.call('GET /api/{project}/{target}/commit/{shaA}/{shaB}', {
        path: { ...at(project, target), shaA, shaB },
        query: { all_symbols: allSymbols, ...(zeroSize && { zero_size: true }) },
      }),

    /** Other read endpoints of the query service, by path below the target. */
    getTargetResource: <T>(project: string, target: string, resource: string) =>
      api.get<T>(`${targetPath(project, target)}/${resource}`),
  };
}

export type CoreApi = ReturnType<typeof coreApi>;

/** An empty commit result (spec §8): no commits, has_more false, total 0. */
export const EMPTY_COMMIT_PAGE: CommitPage = {
  commits: [],
  pagination: { total_in_chain: 0, has_more: false, count: 0, offset: 0 },
  chain_summary: { total_commits: 0, changed_commits: 0, root_sha: '' },
};
