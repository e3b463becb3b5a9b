import { z } from 'zod';
import {
  sanitizeText,
  validateProjectDescription,
  validateProjectName,
  VALIDATION_MESSAGES,
} from '../validation.js';
import { isoTime } from './common.js';
import { check, textField } from './inputs.js';
import { Invitation, Role } from './organizations.js';
import { RegionConfig } from './regions.js';

/**
 * Project, target and region-configuration calls of the gateway (product spec §3, §7). Answers use
 * the `{status, type, error, data}` envelope.
 */

export const Project = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    organization_id: z.string(),
    organization_name: z.string(),
    role: Role.describe(
      "The caller's effective role in the project (its override, else the organisation role)",
    ),
    favourite: z.boolean().describe('The caller marked it as a favourite (listed first)'),
    api_key_masked: z
      .string()
      .nullable()
      .describe('The live key with its secret hidden (mt_<publicId>_••••••••), null without one'),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof Project>;

/** Only `POST /api/projects` and regeneration return the full key, once. */
export const ProjectWithApiKey = Project.extend({ api_key: z.string() }).meta({
  id: 'ProjectWithApiKey',
});
export type ProjectWithApiKey = z.infer<typeof ProjectWithApiKey>;

export const ListPagination = z
  .object({ total: z.int(), offset: z.int(), limit: z.int() })
  .describe('Present when the list was asked for a page (?limit=): the matching total');

export const ProjectsData = z
  .object({ projects: z.array(Project), pagination: ListPagination.optional() })
  .meta({ id: 'ProjectsData' });
export type ProjectsData = z.infer<typeof ProjectsData>;

export const ProjectData = z.object({ project: Project }).meta({ id: 'ProjectData' });
export type ProjectData = z.infer<typeof ProjectData>;
export const CreatedProjectData = z
  .object({ project: ProjectWithApiKey })
  .meta({ id: 'CreatedProjectData' });
export type CreatedProjectData = z.infer<typeof CreatedProjectData>;

export const RegeneratedKeyData = z
  .object({
    api_key: z.string(),
    api_key_masked: z.string(),
    warning: z.string().describe('What the regeneration broke: the keys it revoked, by name'),
    revoked: z.array(z.string()),
  })
  .meta({ id: 'RegeneratedKeyData' });
export type RegeneratedKeyData = z.infer<typeof RegeneratedKeyData>;

export const DeletedProjectData = z
  .object({
    id: z.string(),
    background: z
      .boolean()
      .describe('True when the rows are removed by a background job rather than already gone'),
  })
  .meta({ id: 'DeletedProjectData' });
export type DeletedProjectData = z.infer<typeof DeletedProjectData>;

/** Someone with access to a project. */
export const ProjectMember = z
  .object({
    user_id: z.string(),
    email: z.string(),
    full_name: z.string().nullable(),
    role: Role.describe('Effective role on this project'),
    source: z
      .enum(['organization', 'project'])
      .describe('project: a role set on this project (an override); organization: inherited'),
    organization_role: Role.nullable().describe(
      'Their organisation role; null for people outside the organisation',
    ),
  })
  .meta({ id: 'ProjectMember' });
export type ProjectMember = z.infer<typeof ProjectMember>;

export const ProjectMembersData = z
  .object({ members: z.array(ProjectMember) })
  .meta({ id: 'ProjectMembersData' });
export const AddedMemberData = z
  .object({
    members: z.array(ProjectMember),
    invitation: Invitation.nullable().describe(
      'The invitation mailed to an address outside the organisation',
    ),
  })
  .meta({ id: 'AddedMemberData' });

export const Target = z
  .object({
    name: z.string(),
    region_config: RegionConfig,
    favourite: z.boolean().describe('The caller marked it as a favourite (listed first)'),
  })
  .meta({ id: 'Target' });
export type Target = z.infer<typeof Target>;

export const TargetsData = z
  .object({ targets: z.array(Target), pagination: ListPagination.optional() })
  .meta({ id: 'TargetsData' });
export type TargetsData = z.infer<typeof TargetsData>;

export const FavouriteData = z.object({ favourite: z.boolean() }).meta({ id: 'FavouriteData' });

// ------------------------------------------------------------------------------------------
// requests
// ------------------------------------------------------------------------------------------

const projectName = textField(VALIDATION_MESSAGES.projectName)
  .transform((name) => name.trim())
  .superRefine(check(validateProjectName))
  .meta({ minLength: 2, maxLength: 100, pattern: '^[A-Za-z0-9 ._-]+$' });

// Same cleaning as the web form (spec §5): no tags or angle brackets are stored.
const projectDescription = z
  .string({ error: VALIDATION_MESSAGES.invalidFormat })
  .superRefine(check(validateProjectDescription))
  .transform((text) => sanitizeText(text) || null)
  .nullable()
  .meta({ maxLength: 500 });

/** Create: a valid name is required, the description optional (spec §5). */
export const CreateProjectRequest = z
  .object({
    name: projectName,
    description: projectDescription.optional().transform((text) => text ?? null),
    organization_id: z
      .string()
      .optional()
      .describe('The organisation to create it in (the X-Memtrail-Organization header wins)'),
  })
  .meta({ id: 'CreateProjectRequest' });

/** Update: only the fields present are changed; at least one must be. */
export const UpdateProjectRequest = z
  .object({ name: projectName.optional(), description: projectDescription.optional() })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.description === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Send name or description to update' });
    }
  })
  .meta({ id: 'UpdateProjectRequest' });
