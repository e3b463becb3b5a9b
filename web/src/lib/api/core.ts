import type {
  Budget,
  BudgetInput,
  CreatedProjectData,
  Project,
  ProjectMember,
  PublicAccessData,
  PublicProjectData,
  RegeneratedKeyData,
  RegionConfig,
  RegionConfigData,
  Target,
  UpdatePublicAccessRequest,
} from '@memtrail/contracts';
import type { ApiClient } from './client.ts';
import type { CommitPage, Head } from './queryTypes.ts';

// Core service calls of spec §7 plus the project settings calls (budgets, members). Every call
// here throws; the data stores record the message per data kind and the hooks fall back to an
// empty or null value (spec §8), while writes reach the form that made them.

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
  return {
    api,
    getProjects: async () =>
      (await api.get<{ projects?: Project[] }>('/api/projects'))?.projects ?? [],

    /** In the organisation chosen in the header, else the user's personal one. */
    createProject: async (name: string, description: string, organizationId?: string | null) =>
      (
        await api.request<CreatedProjectData>('POST', '/api/projects', {
          name,
          description,
          ...(organizationId ? { organization_id: organizationId } : {}),
        })
      ).project,

    setProjectFavourite: (id: string, favourite: boolean) =>
      api.request<unknown>(favourite ? 'PUT' : 'DELETE', `/api/projects/${seg(id)}/favourite`),

    deleteProject: (id: string) => api.request<unknown>('DELETE', `/api/projects/${seg(id)}`),

    updateProject: async (id: string, fields: { name?: string; description?: string | null }) =>
      (await api.request<{ project: Project }>('PUT', `/api/projects/${seg(id)}`, fields)).project,

    regenerateApiKey: (id: string) =>
      api.request<RegeneratedKeyData>('POST', `/api/projects/${seg(id)}/regenerate-api-key`),

    getMembers: async (id: string) =>
      (await api.get<{ members: ProjectMember[] }>(`/api/projects/${seg(id)}/members`)).members,

    addMember: async (id: string, email: string) =>
      (
        await api.request<{ members: ProjectMember[] }>(
          'POST',
          `/api/projects/${seg(id)}/members`,
          { email },
        )
      ).members,

    removeMember: async (id: string, userId: string) =>
      (
        await api.request<{ members: ProjectMember[] }>(
          'DELETE',
          `/api/projects/${seg(id)}/members/${seg(userId)}`,
        )
      ).members,

    /** A public project as anyone sees it; throws (404) for any other. */
    getPublicProject: async (id: string) =>
      (await api.get<PublicProjectData>(`/api/public/projects/${seg(id)}`)).project,

    getPublicAccess: (id: string) =>
      api.get<PublicAccessData>(`/api/projects/${seg(id)}/public-access`),

    updatePublicAccess: (id: string, change: UpdatePublicAccessRequest) =>
      api.request<PublicAccessData>('PUT', `/api/projects/${seg(id)}/public-access`, change),

    getTargets: async (project: string) =>
      (await api.get<{ targets?: Target[] }>(`/api/${seg(project)}/targets`))?.targets ?? [],

    getRegionConfig: async (project: string, target: string) =>
      (
        await api.get<{ region_config?: RegionConfig }>(
          `${targetPath(project, target)}/region-config`,
        )
      )?.region_config ?? null,

    /** The same call, whole: the configuration and every region the reports have had. */
    getRegionSettings: (project: string, target: string) =>
      api.get<RegionConfigData>(`${targetPath(project, target)}/region-config`),

    updateRegionConfig: (project: string, target: string, regionConfig: RegionConfig) =>
      api.request<unknown>('PUT', `${targetPath(project, target)}/region-config`, {
        region_config: regionConfig,
      }),

    getBudgets: async (project: string, target: string) =>
      (await api.get<{ budgets: Budget[] }>(`${targetPath(project, target)}/budgets`)).budgets,

    createBudget: async (project: string, target: string, input: BudgetInput) =>
      (
        await api.request<{ budget: Budget }>(
          'POST',
          `${targetPath(project, target)}/budgets`,
          input,
        )
      ).budget,

    updateBudget: async (project: string, target: string, id: string, input: BudgetInput) =>
      (
        await api.request<{ budget: Budget }>(
          'PUT',
          `${targetPath(project, target)}/budgets/${seg(id)}`,
          input,
        )
      ).budget,

    deleteBudget: (project: string, target: string, id: string) =>
      api.request<unknown>('DELETE', `${targetPath(project, target)}/budgets/${seg(id)}`),

    getHeads: async (project: string, target: string) =>
      (await api.get<{ heads?: Head[] }>(`${targetPath(project, target)}/heads`))?.heads ?? [],

    getCommits: (project: string, target: string, sha: string, query: CommitQuery = {}) => {
      const { count = COMMIT_PAGE_SIZE, offset = 0, onlyChanged = true } = query;
      const params = `count=${count}&offset=${offset}${onlyChanged ? '&only_changed=true' : ''}`;
      return api.get<CommitPage>(`${targetPath(project, target)}/commits/${seg(sha)}?${params}`);
    },

    getMemoryReport: (project: string, target: string, sha: string, includeSymbols = true) =>
      api.get<unknown>(
        `${targetPath(project, target)}/commit/${seg(sha)}${includeSymbols ? '?include_symbols=true' : ''}`,
      ),

    /** `zeroSize`: also the changes of 0-byte symbols (LTO markers), hidden by default. */
    getDiff: (
      project: string,
      target: string,
      shaA: string,
      shaB: string,
      allSymbols: boolean,
      zeroSize = false,
    ) =>
      api.get<unknown>(
        `${targetPath(project, target)}/commit/${seg(shaA)}/${seg(shaB)}?all_symbols=${allSymbols}${zeroSize ? '&zero_size=true' : ''}`,
      ),

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
