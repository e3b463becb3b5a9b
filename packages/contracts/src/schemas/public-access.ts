import { z } from 'zod';
import { GITHUB_REPOSITORY_MESSAGE, parseGithubRepository } from '../public-access.js';

/** Public projects, their linked GitHub repository and keyless uploads (docs/public-projects.md). */

export const PublicAccessSettings = z
  .object({
    public: z
      .boolean()
      .describe(
        'Dashboards, commit, compare and symbol pages and badges readable without signing in',
      ),
    repository: z
      .string()
      .nullable()
      .describe('The linked GitHub repository as owner/name; null when none is linked'),
    tokenless_uploads: z
      .boolean()
      .describe("Accept the MemBrowse CLI's tokenless uploads from the repository's pull requests"),
    oidc_uploads: z
      .boolean()
      .describe("Accept GitHub Actions OIDC tokens of the repository's workflows"),
  })
  .meta({ id: 'PublicAccessSettings' });
export type PublicAccessSettings = z.infer<typeof PublicAccessSettings>;

export const PublicAccessData = z
  .object({
    settings: PublicAccessSettings,
    oidc_audience: z
      .string()
      .describe('The audience (aud) an OIDC token must be requested for to upload to this project'),
    public_url: z
      .string()
      .describe("Where the project's pages are, for signed-out readers too once it is public"),
    badge_base_url: z
      .string()
      .describe('Badge URL without the target: append /{target}.svg?region=… or .json'),
  })
  .meta({ id: 'PublicAccessData' });
export type PublicAccessData = z.infer<typeof PublicAccessData>;

const toggle = (key: string) => z.boolean({ error: `${key} must be true or false` }).optional();

/** Only the fields sent are changed; at least one must be. */
export const UpdatePublicAccessRequest = z
  .object({
    public: toggle('public'),
    repository: z
      .union([z.string(), z.null()], { error: GITHUB_REPOSITORY_MESSAGE })
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        if (value === null || value === '') return null;
        const parsed = parseGithubRepository(value);
        if (parsed) return parsed;
        ctx.addIssue({ code: 'custom', message: GITHUB_REPOSITORY_MESSAGE });
        return z.NEVER;
      })
      .describe('owner/name or a repository URL; null unlinks (and turns keyless uploads off)'),
    tokenless_uploads: toggle('tokenless_uploads'),
    oidc_uploads: toggle('oidc_uploads'),
  })
  .superRefine((change, ctx) => {
    if (Object.values(change).every((value) => value === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Send public, repository, tokenless_uploads or oidc_uploads to update',
      });
    }
  })
  .meta({ id: 'UpdatePublicAccessRequest' });
export type UpdatePublicAccessRequest = z.input<typeof UpdatePublicAccessRequest>;

/** What a signed-out reader learns about a public project. */
export const PublicProject = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    repository: z.string().nullable(),
  })
  .meta({ id: 'PublicProject' });
export type PublicProject = z.infer<typeof PublicProject>;
export const PublicProjectData = z
  .object({ project: PublicProject })
  .meta({ id: 'PublicProjectData' });
export type PublicProjectData = z.infer<typeof PublicProjectData>;

/** shields.io's endpoint badge schema (https://shields.io/badges/endpoint-badge). */
export const ShieldsEndpointBadge = z
  .object({
    schemaVersion: z.literal(1),
    label: z.string(),
    message: z.string(),
    color: z.string(),
    isError: z.boolean().optional(),
    cacheSeconds: z.int().optional(),
  })
  .meta({ id: 'ShieldsEndpointBadge' });
export type ShieldsEndpointBadge = z.infer<typeof ShieldsEndpointBadge>;
