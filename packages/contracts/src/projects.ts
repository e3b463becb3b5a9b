/**
 * Project, target and region-configuration calls of the gateway (product spec §3, §7). Answers use
 * the `{status, type, error, data}` envelope of envelope.ts.
 */
import type { RegionConfig } from './region-config.js';

import type { Role } from './organizations.js';

/** The caller's effective role in a project (its override, else the organisation role). */
export type ProjectRole = Role;

export interface Project {
  id: string;
  name: string;
  description: string | null;
  organization_id: string;
  organization_name: string;
  /** The caller's role in the project. */
  role: ProjectRole;
  /** The caller marked it as a favourite (listed first). */
  favourite: boolean;
  /** The live key with its secret hidden (`mt_<publicId>_••••••••`), null without one. */
  api_key_masked: string | null;
  created_at: string;
  updated_at: string;
}

/** Only `POST /api/projects` and regeneration return the full key, once. */
export interface ProjectWithApiKey extends Project {
  api_key: string;
}

export interface CreateProjectRequest {
  name: string;
  description?: string | null;
}
export type UpdateProjectRequest = Partial<CreateProjectRequest>;

export interface ProjectsData {
  projects: Project[];
  /** Present when the list was asked for a page (`?limit=`): the matching total. */
  pagination?: ListPagination;
}

export interface ListPagination {
  total: number;
  offset: number;
  limit: number;
}

/** `GET /api/projects` and `GET /api/{project}/targets` take these; all optional. */
export const LIST_LIMITS = { pageMax: 200 } as const;
export interface ProjectData {
  project: Project;
}
export interface CreatedProjectData {
  project: ProjectWithApiKey;
}
export interface RegeneratedKeyData {
  api_key: string;
  api_key_masked: string;
  /** What the regeneration broke: the keys it revoked, by name. */
  warning: string;
  revoked: string[];
}
export interface DeletedProjectData {
  id: string;
  /** True when the rows are removed by a background job rather than already gone. */
  background: boolean;
}

/** Someone with access to a project. */
export interface ProjectMember {
  user_id: string;
  email: string;
  full_name: string | null;
  /** Effective role on this project. */
  role: ProjectRole;
  /** "project": a role set on this project (an override); "organization": inherited. */
  source: 'organization' | 'project';
  /** Their organisation role; null for people outside the organisation. */
  organization_role: ProjectRole | null;
}
/** Invites by email (an invitation is mailed whether or not the address has an account). */
export interface AddMemberRequest {
  email: string;
  role?: ProjectRole;
}

export interface Target {
  name: string;
  region_config: RegionConfig;
  /** The caller marked it as a favourite (listed first). */
  favourite: boolean;
}
export interface TargetsData {
  targets: Target[];
  pagination?: ListPagination;
}
