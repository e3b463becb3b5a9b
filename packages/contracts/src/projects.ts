/**
 * Project, target and region-configuration calls of the gateway (product spec §3, §7). Answers use
 * the `{status, type, error, data}` envelope of envelope.ts.
 */

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

/**
 * Per-target display settings of memory regions, keyed by the region name in the reports
 * (e.g. "FLASH"). Every field is optional; absent regions use the report's own values.
 *
 * JSON schema (informal): `{ [region: string 1-64 chars]: { display_name?: string 1-100,
 * kind?: 'flash' | 'ram' | 'other', limit?: integer 0..2^53-1 | null, hidden?: boolean } }`,
 * at most 64 regions, no other keys.
 */
export type RegionKind = 'flash' | 'ram' | 'other';
export interface RegionSettings {
  display_name?: string;
  kind?: RegionKind;
  /** Overrides the linker script's size (bytes); null clears an override. */
  limit?: number | null;
  hidden?: boolean;
}
export type RegionConfig = Record<string, RegionSettings>;
export interface RegionConfigData {
  region_config: RegionConfig;
}

export const REGION_CONFIG_LIMITS = { regions: 64, nameMax: 64, displayNameMax: 100 } as const;
const REGION_KINDS: readonly string[] = ['flash', 'ram', 'other'];
const REGION_KEYS = new Set(['display_name', 'kind', 'limit', 'hidden']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a region configuration against the schema above; returns the first problem as a
 * sentence naming the region and field, or null when the document is valid.
 */
export function validateRegionConfig(value: unknown): string | null {
  if (!isObject(value)) return 'region_config must be an object keyed by region name';
  const entries = Object.entries(value);
  if (entries.length > REGION_CONFIG_LIMITS.regions) {
    return `region_config cannot have more than ${REGION_CONFIG_LIMITS.regions} regions`;
  }
  for (const [name, settings] of entries) {
    if (!name.trim() || name.length > REGION_CONFIG_LIMITS.nameMax) {
      return `Region names must be 1-${REGION_CONFIG_LIMITS.nameMax} characters`;
    }
    if (!isObject(settings)) return `Region ${name}: settings must be an object`;
    const unknown = Object.keys(settings).find((key) => !REGION_KEYS.has(key));
    if (unknown) return `Region ${name}: unknown field ${unknown}`;
    const { display_name, kind, limit, hidden } = settings;
    if (
      display_name !== undefined &&
      (typeof display_name !== 'string' ||
        !display_name.trim() ||
        display_name.length > REGION_CONFIG_LIMITS.displayNameMax)
    ) {
      return `Region ${name}: display_name must be 1-${REGION_CONFIG_LIMITS.displayNameMax} characters`;
    }
    if (kind !== undefined && (typeof kind !== 'string' || !REGION_KINDS.includes(kind))) {
      return `Region ${name}: kind must be flash, ram or other`;
    }
    if (
      limit !== undefined &&
      limit !== null &&
      !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0)
    ) {
      return `Region ${name}: limit must be a non-negative integer number of bytes or null`;
    }
    if (hidden !== undefined && typeof hidden !== 'boolean') {
      return `Region ${name}: hidden must be true or false`;
    }
  }
  return null;
}
