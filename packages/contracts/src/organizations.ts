/**
 * Organisations, roles, invitations, API keys, SSO and the audit log (gateway `/api/orgs/…`,
 * `/api/projects/{id}/keys`, `/api/invitations/…`). Answers use the envelope of envelope.ts.
 */

/** Weakest first; docs/operations.md has what each may do. */
export const ROLE_NAMES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLE_NAMES)[number];

/** The web app names the chosen organisation in this header; the API filters by it. */
export const ORGANIZATION_HEADER = 'x-memtrail-organization';
/** An organisation CI token names the project it uploads to in this header (id or name). */
export const PROJECT_HEADER = 'x-memtrail-project';

export interface Organization {
  id: string;
  name: string;
  /** True for a user's personal organisation. */
  personal: boolean;
  /** The caller's role. */
  role: Role;
  audit_retention_days: number | null;
  sso: { enforced: boolean; domains: string[] } | null;
  project_count: number;
  created_at: string;
}
export interface OrganizationsData {
  organizations: Organization[];
}
export interface OrganizationData {
  organization: Organization;
}

export interface OrganizationMember {
  user_id: string;
  email: string;
  full_name: string | null;
  role: Role;
  /** "created", "invitation", "sso" or "manual". */
  source: string;
  created_at: string;
}
export interface OrganizationMembersData {
  members: OrganizationMember[];
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  project_id: string | null;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  expires_at: string;
  sent_at: string;
  created_at: string;
}
export interface InvitationsData {
  invitations: Invitation[];
}
export interface InvitationData {
  invitation: Invitation;
}
/** What the person opening an invitation link sees before accepting. */
export interface InvitationPreview {
  organization_name: string;
  project_name: string | null;
  role: Role;
  email: string;
  expires_at: string;
}
export interface AcceptedInvitationData {
  organization_id: string;
  project_id: string | null;
}

export type ApiKeyScope = 'upload' | 'read';
export interface ApiKeyInfo {
  id: string;
  name: string;
  scope: ApiKeyScope;
  /** `mt_<publicId>_••••••••` */
  masked: string;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  last_user_agent: string | null;
  last_ip: string | null;
  revoked_at: string | null;
}
export interface ApiKeysData {
  keys: ApiKeyInfo[];
}
/** A new key: the only time its secret is shown. */
export interface CreatedApiKeyData {
  key: ApiKeyInfo;
  api_key: string;
}
export interface CreateApiKeyRequest {
  name: string;
  scope?: ApiKeyScope;
  /** ISO date; omitted: never expires. */
  expires_at?: string | null;
}

export interface GroupRole {
  group: string;
  role: Role;
}
export interface SsoConnection {
  issuer: string;
  client_id: string;
  /** The secret is never returned; true when one is stored. */
  client_secret_set: boolean;
  domains: string[];
  enforced: boolean;
  groups_claim: string;
  group_roles: GroupRole[];
  default_role: Role | null;
  /** Where the provider must send users back (register it at the provider). */
  redirect_uri: string;
}
export interface SsoConnectionData {
  sso: SsoConnection | null;
}

export interface AuditEvent {
  id: string;
  action: string;
  project_id: string | null;
  actor: { type: string; id: string | null; label: string | null };
  details: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}
export interface AuditEventsData {
  events: AuditEvent[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: string | null;
}
