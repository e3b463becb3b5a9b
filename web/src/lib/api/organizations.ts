import type {
  ApiKeyInfo,
  AuditEventsData,
  CreateApiKeyRequest,
  CreatedApiKeyData,
  Invitation,
  InvitationPreview,
  Organization,
  OrganizationMember,
  ProjectMember,
  ProjectsData,
  Role,
  SsoConnection,
  TargetsData,
} from '@memtrail/contracts';
import type { ApiClient } from './client.ts';

// Organisation, member, invitation, key and audit calls of the gateway (docs/operations.md).

const seg = encodeURIComponent;
const org = (id: string) => `/api/orgs/${seg(id)}`;

export interface ListParams {
  search?: string;
  favourites?: boolean;
  offset: number;
  limit: number;
}

const listQuery = ({ search, favourites, offset, limit }: ListParams) =>
  new URLSearchParams({
    ...(search ? { search } : {}),
    ...(favourites ? { favourites: 'true' } : {}),
    offset: String(offset),
    limit: String(limit),
  }).toString();

export function organizationsApi(api: ApiClient) {
  return {
    organizations: async () =>
      (await api.get<{ organizations: Organization[] }>('/api/orgs')).organizations,
    createOrganization: async (name: string) =>
      (await api.request<{ organization: Organization }>('POST', '/api/orgs', { name }))
        .organization,
    updateOrganization: (
      id: string,
      fields: { name?: string; audit_retention_days?: number | null },
    ) => api.request<{ organization: Organization }>('PUT', org(id), fields),

    members: async (id: string) =>
      (await api.get<{ members: OrganizationMember[] }>(`${org(id)}/members`)).members,
    setRole: (id: string, userId: string, role: Role) =>
      api.request<unknown>('PUT', `${org(id)}/members/${seg(userId)}`, { role }),
    removeMember: (id: string, userId: string) =>
      api.request<unknown>('DELETE', `${org(id)}/members/${seg(userId)}`),

    invitations: async (id: string) =>
      (await api.get<{ invitations: Invitation[] }>(`${org(id)}/invitations`)).invitations,
    invite: (id: string, email: string, role: Role) =>
      api.request<{ invitation: Invitation }>('POST', `${org(id)}/invitations`, { email, role }),
    revokeInvitation: (id: string, invitation: string) =>
      api.request<unknown>('DELETE', `${org(id)}/invitations/${seg(invitation)}`),
    resendInvitation: (id: string, invitation: string) =>
      api.request<unknown>('POST', `${org(id)}/invitations/${seg(invitation)}/resend`),
    previewInvitation: (token: string) =>
      api.get<InvitationPreview>(`/api/invitations/${seg(token)}`),
    acceptInvitation: (token: string) =>
      api.request<{ organization_id: string; project_id: string | null }>(
        'POST',
        '/api/invitations/accept',
        { token },
      ),

    tokens: async (id: string) => (await api.get<{ keys: ApiKeyInfo[] }>(`${org(id)}/tokens`)).keys,
    createToken: (id: string, name: string) =>
      api.request<CreatedApiKeyData>('POST', `${org(id)}/tokens`, { name }),
    revokeToken: (id: string, key: string) =>
      api.request<unknown>('DELETE', `${org(id)}/tokens/${seg(key)}`),

    sso: async (id: string) => (await api.get<{ sso: SsoConnection | null }>(`${org(id)}/sso`)).sso,
    saveSso: (id: string, body: Record<string, unknown>) =>
      api.request<{ sso: SsoConnection }>('PUT', `${org(id)}/sso`, body),

    audit: (id: string, query: string) => api.get<AuditEventsData>(`${org(id)}/audit?${query}`),
    auditExport: (id: string, query: string) => api.download(`${org(id)}/audit/export?${query}`),

    projectPage: (params: ListParams) =>
      api.get<ProjectsData>(`/api/projects?${listQuery(params)}`),
    targetPage: (project: string, params: ListParams) =>
      api.get<TargetsData>(`/api/${seg(project)}/targets?${listQuery(params)}`),
    setFavourite: (path: string, favourite: boolean) =>
      api.request<unknown>(favourite ? 'PUT' : 'DELETE', `${path}/favourite`),

    keys: async (project: string) =>
      (await api.get<{ keys: ApiKeyInfo[] }>(`/api/projects/${seg(project)}/keys`)).keys,
    createKey: (project: string, body: CreateApiKeyRequest) =>
      api.request<CreatedApiKeyData>('POST', `/api/projects/${seg(project)}/keys`, body),
    revokeKey: (project: string, key: string) =>
      api.request<unknown>('DELETE', `/api/projects/${seg(project)}/keys/${seg(key)}`),

    addProjectMember: (project: string, email: string, role: Role) =>
      api.request<{ members: ProjectMember[]; invitation: Invitation | null }>(
        'POST',
        `/api/projects/${seg(project)}/members`,
        { email, role },
      ),
  };
}

export type OrganizationsApi = ReturnType<typeof organizationsApi>;
