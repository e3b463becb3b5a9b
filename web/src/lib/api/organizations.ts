import type { ApiBody, ApiData, Role } from '@memtrail/contracts';
import type { ApiClient } from './client.ts';

// Organisation, member, invitation, key and audit calls of the gateway (docs/operations.md),
// each an operation of @memtrail/contracts typed by its schemas.

const seg = encodeURIComponent;
const org = (id: string) => `/api/orgs/${seg(id)}`;

export interface ListParams {
  search?: string;
  favourites?: boolean;
  offset: number;
  limit: number;
}

const listQuery = ({ search, favourites, offset, limit }: ListParams) => ({
  ...(search ? { search } : {}),
  ...(favourites ? { favourites: 'true' } : {}),
  offset,
  limit,
});

export function organizationsApi(api: ApiClient) {
  return {
    organizations: async () => (await api.call('GET /api/orgs')).organizations,
    createOrganization: async (name: string) =>
      (await api.call('POST /api/orgs', { body: { name } })).organization,
    updateOrganization: (
      id: string,
      fields: { name?: string; audit_retention_days?: number | null },
    ) => api.call('PUT /api/orgs/{org}', { path: { org: id }, body: fields }),

    members: async (id: string) =>
      (await api.call('GET /api/orgs/{org}/members', { path: { org: id } })).members,
    setRole: (id: string, userId: string, role: Role) =>
      api.call('PUT /api/orgs/{org}/members/{userId}', {
        path: { org: id, userId },
        body: { role },
      }),
    removeMember: (id: string, userId: string) =>
      api.call('DELETE /api/orgs/{org}/members/{userId}', { path: { org: id, userId } }),

    invitations: async (id: string) =>
      (await api.call('GET /api/orgs/{org}/invitations', { path: { org: id } })).invitations,
    invite: (id: string, email: string, role: Role) =>
      api.call('POST /api/orgs/{org}/invitations', { path: { org: id }, body: { email, role } }),
    revokeInvitation: (id: string, invitation: string) =>
      api.call('DELETE /api/orgs/{org}/invitations/{id}', {
        path: { org: id, id: invitation },
      }),
    resendInvitation: (id: string, invitation: string) =>
      api.call('POST /api/orgs/{org}/invitations/{id}/resend', {
        path: { org: id, id: invitation },
      }),
    previewInvitation: (token: string) =>
      api.call('GET /api/invitations/{token}', { path: { token } }),
    acceptInvitation: (token: string) =>
      api.call('POST /api/invitations/accept', { body: { token } }),

    tokens: async (id: string) =>
      (await api.call('GET /api/orgs/{org}/tokens', { path: { org: id } })).keys,
    createToken: (id: string, name: string) =>
      api.call('POST /api/orgs/{org}/tokens', { path: { org: id }, body: { name } }),
    revokeToken: (id: string, key: string) =>
      api.call('DELETE /api/orgs/{org}/tokens/{keyId}', { path: { org: id, keyId: key } }),

    sso: async (id: string) =>
      (await api.call('GET /api/orgs/{org}/sso', { path: { org: id } })).sso,
    saveSso: (id: string, body: ApiBody<'PUT /api/orgs/{org}/sso'>) =>
      api.call('PUT /api/orgs/{org}/sso', { path: { org: id }, body }),

    audit: (id: string, query: string) =>
      api.get<ApiData<'GET /api/orgs/{org}/audit'>>(`${org(id)}/audit?${query}`),
    auditExport: (id: string, query: string) => api.download(`${org(id)}/audit/export?${query}`),

    projectPage: (params: ListParams) =>
      api.call('GET /api/projects', { query: listQuery(params) }),
    targetPage: (project: string, params: ListParams) =>
      api.call('GET /api/{project}/targets', { path: { project }, query: listQuery(params) }),
    setFavourite: (path: string, favourite: boolean) =>
      api.request<unknown>(favourite ? 'PUT' : 'DELETE', `${path}/favourite`),

    keys: async (project: string) =>
      (await api.call('GET /api/projects/{id}/keys', { path: { id: project } })).keys,
    createKey: (project: string, body: ApiBody<'POST /api/projects/{id}/keys'>) =>
      api.call('POST /api/projects/{id}/keys', { path: { id: project }, body }),
    revokeKey: (project: string, key: string) =>
      api.call('DELETE /api/projects/{id}/keys/{keyId}', { path: { id: project, keyId: key } }),

    addProjectMember: (project: string, email: string, role: Role) =>
      api.call('POST /api/projects/{id}/members', { path: { id: project }, body: { email, role } }),
  };
}

export type OrganizationsApi = ReturnType<typeof organizationsApi>;
