import { z } from 'zod';
import { ORGANIZATION_HEADER, PROJECT_HEADER } from '../organizations.js';
import { BLOCK_UPLOAD_TYPE } from '../upload-forms.js';
import * as auth from './auth.js';
import * as budgets from './budgets.js';
import * as health from './health.js';
import * as orgs from './organizations.js';
import * as p from './params.js';
import * as projects from './projects.js';
import * as publicAccess from './public-access.js';
import * as query from './query.js';
import { RegionConfig, RegionConfigData } from './regions.js';
import { UploadEnvelope } from './report.js';
import * as upload from './upload.js';

/**
 * Every HTTP operation of the gateway, keyed by `METHOD /openapi/path`: who may call it, its
 * parameters and body (the schemas the gateway validates requests with) and its answer. The
 * OpenAPI document (openapi.ts) and the clients' types are derived from this table; a test
 * checks it against the routes Nest serves.
 */

/**
 * bearer: a user's access token; reader: a user, a read key of the project, or anyone when the
 * project is public; uploader: a project upload key, an organisation CI token, a GitHub Actions
 * OIDC token or a tokenless pull-request upload; apiKey: a project key (upload or read); admin:
 * ADMIN_TOKEN; none: public.
 */
export type Access = 'bearer' | 'reader' | 'uploader' | 'apiKey' | 'admin' | 'none';

export type Answer =
  /** `{status, type, error, data}` with `data` on success, ErrorEnvelope on failure. */
  | { kind: 'envelope'; data: z.ZodType; status: 200 | 201 | 202 }
  /** `{success, data, error}` of `/auth/*`. */
  | { kind: 'auth'; data: z.ZodType }
  /** A JSON body of its own (health, upload protocol), with its own error body. */
  | { kind: 'json'; body: z.ZodType; error?: z.ZodType; also503?: boolean }
  /** A file download (exports), in one of these media types. */
  | { kind: 'file'; media: readonly string[] }
  /** A browser redirect (sign-in flows). */
  | { kind: 'redirect'; to: string }
  /** A badge: SVG, or shields.io's endpoint JSON. */
  | { kind: 'badge' };

export interface Operation {
  summary: string;
  tag: string;
  access: Access;
  path?: z.ZodObject;
  query?: z.ZodType;
  /** Headers the operation reads besides Authorization and X-Request-Id. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** A binary form the body may take instead of JSON (its media type and what it holds). */
  binaryBody?: { media: string; description: string };
  answer: Answer;
}

const envelope = <T extends z.ZodType>(data: T, status: 200 | 201 | 202 = 200) =>
  ({ kind: 'envelope', data, status }) as const;
const authAnswer = <T extends z.ZodType>(data: T) => ({ kind: 'auth', data }) as const;
const redirect = (to: string) => ({ kind: 'redirect', to }) as const;
const NO_DATA = z.null();

const OrganizationHeader = z.object({
  [ORGANIZATION_HEADER]: z
    .string()
    .optional()
    .describe('The organisation chosen in the web app (id); default: the personal one'),
});
const ProjectHeader = {
  [PROJECT_HEADER]: z
    .string()
    .optional()
    .describe('The project (id or name) an organisation CI token uploads to'),
};

const UploadOperation = {
  summary:
    'Upload a memory report (JSON or gzip JSON, or in block form), MemBrowse-compatible: ' +
    'project API key, GitHub Actions OIDC token, or X-Auth-Type: github-tokenless from a pull request',
  tag: 'upload',
  access: 'uploader',
  headers: z.object({
    ...ProjectHeader,
    'content-encoding': z.enum(['gzip', 'identity']).optional(),
    'x-auth-type': z
      .literal('github-tokenless')
      .optional()
      .describe("A keyless upload from a pull request of the project's linked public repository"),
  }),
  body: UploadEnvelope,
  binaryBody: {
    media: BLOCK_UPLOAD_TYPE,
    description:
      'A full build split into content-addressed blocks by the memtrail CLI: the envelope ' +
      'without its symbols, the version record and the blocks (docs/query.md). Refused with ' +
      '400 when a block does not match its hash or the record does not match the blocks.',
  },
  answer: { kind: 'json', body: upload.UploadSuccessResponse, error: upload.UploadErrorResponse },
} as const satisfies Operation;

const SummaryOperation = {
  summary: "Summary of a commit's reports across targets, for PR comments",
  tag: 'upload',
  access: 'apiKey',
  headers: z.object(ProjectHeader),
  query: p.SummaryQuery,
  answer: { kind: 'json', body: upload.SummaryResponse, error: upload.UploadErrorResponse },
} as const satisfies Operation;

const OAuthProviderPath = z.object({ provider: auth.OAuthProviderId });
const CallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
const JobPath = z.object({ jobId: z.string().describe('Id of the failed job') });
const keyPath = (name: string) => z.object({ [name]: z.string() });

export const operations = {
  'GET /healthz': {
    summary: 'Liveness: the process serves HTTP',
    tag: 'health',
    access: 'none',
    answer: { kind: 'json', body: health.LivenessReport },
  },
  'GET /readyz': {
    summary: 'Readiness: Postgres, Redis, ClickHouse and the query service answer (503 otherwise)',
    tag: 'health',
    access: 'none',
    answer: { kind: 'json', body: health.ReadinessReport, also503: true },
  },

  'GET /auth/settings': {
    summary: 'Which sign-in flows this deployment offers',
    tag: 'auth',
    access: 'none',
    answer: authAnswer(auth.AuthSettings),
  },
  'POST /auth/signup': {
    summary: 'Create an account (cloud mode: a confirmation mail first)',
    tag: 'auth',
    access: 'none',
    body: auth.SignUpRequest,
    answer: authAnswer(z.union([auth.AuthSession, auth.PendingConfirmation])),
  },
  'POST /auth/login': {
    summary: 'Sign in with email and password',
    tag: 'auth',
    access: 'none',
    body: auth.SignInRequest,
    answer: authAnswer(auth.AuthSession),
  },
  'POST /auth/refresh': {
    summary: 'Exchange a refresh token for new tokens (rotation)',
    tag: 'auth',
    access: 'none',
    body: auth.RefreshRequest,
    answer: authAnswer(auth.AuthSession),
  },
  'POST /auth/logout': {
    summary: 'Revoke a refresh token',
    tag: 'auth',
    access: 'none',
    body: auth.RefreshRequest,
    answer: authAnswer(NO_DATA),
  },
  'GET /auth/user': {
    summary: 'The signed-in user',
    tag: 'auth',
    access: 'bearer',
    answer: authAnswer(z.object({ user: auth.AuthUser })),
  },
  'PUT /auth/password': {
    summary: 'Change the password with the current one; sessions end and a new one starts',
    tag: 'auth',
    access: 'bearer',
    body: auth.UpdatePasswordRequest,
    answer: authAnswer(auth.AuthSession),
  },
  'POST /auth/recover': {
    summary: 'Mail a password-reset link',
    tag: 'auth',
    access: 'none',
    body: auth.RecoverRequest,
    answer: authAnswer(NO_DATA),
  },
  'POST /auth/reset-password': {
    summary: 'Set a new password with a reset token',
    tag: 'auth',
    access: 'none',
    body: auth.ResetPasswordRequest,
    answer: authAnswer(auth.AuthSession),
  },
  'GET /auth/confirm': {
    summary: 'Confirm an email address from a mailed link',
    tag: 'auth',
    access: 'none',
    query: z.object({ token: z.string().optional().describe('The token of the mailed link') }),
    answer: redirect('The site root with ?code= (see POST /auth/token) or ?error=invalid_link'),
  },
  'POST /auth/token': {
    summary: 'Exchange a one-time session hand-off code for tokens',
    tag: 'auth',
    access: 'none',
    body: auth.CodeExchangeRequest,
    answer: authAnswer(auth.AuthSession),
  },
  'GET /auth/oauth/{provider}': {
    summary: 'Start OAuth sign-in (PKCE) with GitHub or Google',
    tag: 'auth',
    access: 'none',
    path: OAuthProviderPath,
    answer: redirect("The provider's authorisation page"),
  },
  'GET /auth/oauth/{provider}/callback': {
    summary: 'OAuth redirect target',
    tag: 'auth',
    access: 'none',
    path: OAuthProviderPath,
    query: CallbackQuery,
    answer: redirect('The site root with ?code= or ?error=&error_description='),
  },
  'GET /auth/sso': {
    summary: 'Start SSO sign-in for an email address or organisation',
    tag: 'auth',
    access: 'none',
    query: auth.SsoStartQuery,
    answer: redirect("The organisation's OpenID Connect provider"),
  },
  'GET /auth/sso/callback': {
    summary: 'SSO redirect target',
    tag: 'auth',
    access: 'none',
    query: CallbackQuery,
    answer: redirect('The site root with ?code= or ?error=&error_description='),
  },

  'GET /api/projects': {
    summary:
      'Projects of the signed-in user (in the organisation named by X-Memtrail-Organization)',
    tag: 'projects',
    access: 'bearer',
    headers: OrganizationHeader,
    query: p.ListQuery,
    answer: envelope(projects.ProjectsData),
  },
  'POST /api/projects': {
    summary: 'Create a project (returns its API key once)',
    tag: 'projects',
    access: 'bearer',
    headers: OrganizationHeader,
    body: projects.CreateProjectRequest,
    answer: envelope(projects.CreatedProjectData, 201),
  },
  'PUT /api/projects/{id}': {
    summary: 'Rename or edit a project',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    body: projects.UpdateProjectRequest,
    answer: envelope(projects.ProjectData),
  },
  'DELETE /api/projects/{id}': {
    summary: 'Delete a project and its data',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(projects.DeletedProjectData),
  },
  'POST /api/projects/{id}/regenerate-api-key': {
    summary: 'Issue a new API key; the old one stops working',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(projects.RegeneratedKeyData),
  },
  'GET /api/projects/{id}/members': {
    summary: 'Members and their roles',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(projects.ProjectMembersData),
  },
  'POST /api/projects/{id}/members': {
    summary: 'Give an organisation member a role on the project, or invite anyone by email',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    body: orgs.InviteRequest,
    answer: envelope(projects.AddedMemberData, 201),
  },
  'DELETE /api/projects/{id}/members/{userId}': {
    summary: 'Remove a project role',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath.extend(keyPath('userId').shape),
    answer: envelope(projects.ProjectMembersData),
  },
  'PUT /api/projects/{id}/favourite': {
    summary: 'Mark a project as a favourite',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(projects.FavouriteData),
  },
  'DELETE /api/projects/{id}/favourite': {
    summary: 'Unmark a favourite project',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(projects.FavouriteData),
  },
  'GET /api/projects/{id}/keys': {
    summary: 'API keys of a project (secrets hidden)',
    tag: 'keys',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(orgs.ApiKeysData),
  },
  'POST /api/projects/{id}/keys': {
    summary: 'Create a named upload or read key (shown once)',
    tag: 'keys',
    access: 'bearer',
    path: p.ProjectIdPath,
    body: orgs.CreateProjectKeyRequest,
    answer: envelope(orgs.CreatedApiKeyData, 201),
  },
  'DELETE /api/projects/{id}/keys/{keyId}': {
    summary: 'Revoke an API key',
    tag: 'keys',
    access: 'bearer',
    path: p.ProjectIdPath.extend(keyPath('keyId').shape),
    answer: envelope(orgs.ApiKeyData),
  },
  'GET /api/projects/{id}/public-access': {
    summary: 'Public switch, linked GitHub repository and keyless uploads of a project',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    answer: envelope(publicAccess.PublicAccessData),
  },
  'PUT /api/projects/{id}/public-access': {
    summary: 'Change the public switch, repository link or keyless uploads',
    tag: 'projects',
    access: 'bearer',
    path: p.ProjectIdPath,
    body: publicAccess.UpdatePublicAccessRequest,
    answer: envelope(publicAccess.PublicAccessData),
  },
  'GET /api/public/projects/{id}': {
    summary: 'A public project as signed-out readers see it',
    tag: 'public',
    access: 'none',
    path: p.ProjectIdPath,
    answer: envelope(publicAccess.PublicProjectData),
  },
  'GET /badge/{project}/{file}': {
    summary:
      'Badge of a target region of a public project: {target}.svg or shields.io {target}.json',
    tag: 'public',
    access: 'none',
    path: p.BadgePath,
    query: p.BadgeQuery,
    answer: { kind: 'badge' },
  },

  'GET /api/{project}/targets': {
    summary: 'Targets of a project (anyone for a public project)',
    tag: 'targets',
    access: 'reader',
    path: p.ProjectPath,
    query: p.ListQuery,
    answer: envelope(projects.TargetsData),
  },
  'GET /api/{project}/{target}/region-config': {
    summary: 'Region configuration of a target, with every region its reports have had',
    tag: 'targets',
    access: 'bearer',
    path: p.TargetPath,
    answer: envelope(RegionConfigData),
  },
  'PUT /api/{project}/{target}/region-config': {
    summary: 'Replace the region configuration of a target',
    tag: 'targets',
    access: 'bearer',
    path: p.TargetPath,
    body: z.object({ region_config: RegionConfig }).meta({ id: 'RegionConfigRequest' }),
    answer: envelope(RegionConfigData),
  },
  'PUT /api/{project}/{target}/favourite': {
    summary: 'Mark a target as a favourite',
    tag: 'targets',
    access: 'bearer',
    path: p.TargetPath,
    answer: envelope(projects.FavouriteData),
  },
  'DELETE /api/{project}/{target}/favourite': {
    summary: 'Unmark a favourite target',
    tag: 'targets',
    access: 'bearer',
    path: p.TargetPath,
    answer: envelope(projects.FavouriteData),
  },

  'GET /api/{project}/{target}/budgets': {
    summary: 'Budgets of a target',
    tag: 'budgets',
    access: 'bearer',
    path: p.TargetPath,
    answer: envelope(budgets.BudgetsData),
  },
  'GET /api/{project}/{target}/budgets/status': {
    summary: 'Every budget of a target at one commit, with its regions against their limits',
    tag: 'budgets',
    access: 'reader',
    path: p.TargetPath,
    query: p.BudgetStatusQuery,
    answer: envelope(budgets.BudgetStatusData),
  },
  'POST /api/{project}/{target}/budgets': {
    summary: 'Add a budget',
    tag: 'budgets',
    access: 'bearer',
    path: p.TargetPath,
    body: budgets.BudgetInput,
    answer: envelope(budgets.BudgetData, 201),
  },
  'PUT /api/{project}/{target}/budgets/{id}': {
    summary: 'Change a budget',
    tag: 'budgets',
    access: 'bearer',
    path: p.TargetPath.extend(keyPath('id').shape),
    body: budgets.BudgetInput,
    answer: envelope(budgets.BudgetData),
  },
  'DELETE /api/{project}/{target}/budgets/{id}': {
    summary: 'Delete a budget',
    tag: 'budgets',
    access: 'bearer',
    path: p.TargetPath.extend(keyPath('id').shape),
    answer: envelope(NO_DATA),
  },

  'GET /api/{project}/{target}/heads': {
    summary: 'Heads (branches) of a target, most recently moved first',
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    answer: envelope(query.HeadsData),
  },
  'GET /api/{project}/{target}/commits/{sha}': {
    summary: 'A page of the chain of parents from a commit',
    tag: 'reads',
    access: 'reader',
    path: p.CommitPath,
    query: p.CommitsQuery,
    answer: envelope(query.CommitPageData),
  },
  'GET /api/{project}/{target}/commit/{sha}': {
    summary: "A commit's memory report",
    tag: 'reads',
    access: 'reader',
    path: p.CommitPath,
    query: p.ReportQuery,
    answer: envelope(query.CommitReportData),
  },
  'GET /api/{project}/{target}/commit/{sha}/tree': {
    summary: "A commit's symbols grouped for treemaps: by source path or by archive and object",
    tag: 'reads',
    access: 'reader',
    path: p.CommitPath,
    query: p.TreeQuery,
    answer: envelope(query.TreeData),
  },
  'GET /api/{project}/{target}/commit/{sha}/symbols': {
    summary: "One page of a commit's symbols, sorted, filtered and searched",
    tag: 'reads',
    access: 'reader',
    path: p.CommitPath,
    query: p.SymbolsQuery,
    answer: envelope(query.SymbolPageData),
  },
  'GET /api/{project}/{target}/commit/{sha}/export': {
    summary: "A commit's report as a JSON or CSV file",
    tag: 'reads',
    access: 'reader',
    path: p.CommitPath,
    query: p.ExportQuery,
    answer: { kind: 'file', media: ['application/json', 'text/csv'] },
  },
  'GET /api/{project}/{target}/commit/{shaA}/{shaB}': {
    summary: 'The diff of commit B against commit A',
    tag: 'reads',
    access: 'reader',
    path: p.DiffPath,
    query: p.DiffQuery,
    answer: envelope(query.CommitDiffData),
  },
  'GET /api/{project}/{target}/commit/{shaA}/{shaB}/export': {
    summary: 'The diff of commit B against commit A as a JSON or CSV file',
    tag: 'reads',
    access: 'reader',
    path: p.DiffPath,
    query: p.DiffExportQuery,
    answer: { kind: 'file', media: ['application/json', 'text/csv'] },
  },
  'GET /api/{project}/{target}/series/regions': {
    summary: 'Region sizes across the commits of a branch or a chain, oldest first',
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    query: p.SeriesQuery,
    answer: envelope(query.RegionSeriesData),
  },
  'GET /api/{project}/{target}/series/sections': {
    summary: 'Section sizes across the commits of a branch or a chain, oldest first',
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    query: p.SectionSeriesQuery,
    answer: envelope(query.SectionSeriesData),
  },
  'GET /api/{project}/{target}/symbols/history': {
    summary: "A symbol's size across the commits of a branch or a chain",
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    query: p.SymbolHistoryQuery,
    answer: envelope(query.HistoryData),
  },
  'GET /api/{project}/{target}/files/history': {
    summary: "A source file's size across the commits of a branch or a chain",
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    query: p.FileHistoryQuery,
    answer: envelope(query.HistoryData),
  },
  'GET /api/{project}/{target}/growers': {
    summary: 'The symbols or files that grew and shrank most between two commits or over a window',
    tag: 'reads',
    access: 'reader',
    path: p.TargetPath,
    query: p.GrowersQuery,
    answer: envelope(query.GrowersData),
  },

  'GET /api/orgs': {
    summary: 'Organisations of the signed-in user',
    tag: 'organisations',
    access: 'bearer',
    answer: envelope(orgs.OrganizationsData),
  },
  'POST /api/orgs': {
    summary: 'Create an organisation',
    tag: 'organisations',
    access: 'bearer',
    body: orgs.CreateOrganizationRequest,
    answer: envelope(orgs.OrganizationData, 201),
  },
  'GET /api/orgs/{org}': {
    summary: 'One organisation',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.OrganizationData),
  },
  'PUT /api/orgs/{org}': {
    summary: 'Rename an organisation or set its audit retention',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    body: orgs.UpdateOrganizationRequest,
    answer: envelope(orgs.OrganizationData),
  },
  'DELETE /api/orgs/{org}': {
    summary: 'Delete an organisation without projects',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.DeletedOrganizationData),
  },
  'GET /api/orgs/{org}/members': {
    summary: 'Members and their roles',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.OrganizationMembersData),
  },
  'PUT /api/orgs/{org}/members/{userId}': {
    summary: "Change a member's role",
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath.extend(keyPath('userId').shape),
    body: orgs.SetRoleRequest,
    answer: envelope(orgs.OrganizationMembersData),
  },
  'DELETE /api/orgs/{org}/members/{userId}': {
    summary: 'Remove a member, or leave',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath.extend(keyPath('userId').shape),
    answer: envelope(orgs.OrganizationMembersData),
  },
  'GET /api/orgs/{org}/invitations': {
    summary: 'Invitations',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.InvitationsData),
  },
  'POST /api/orgs/{org}/invitations': {
    summary: 'Invite by email',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath,
    body: orgs.InviteRequest,
    answer: envelope(orgs.InvitationData, 201),
  },
  'DELETE /api/orgs/{org}/invitations/{id}': {
    summary: 'Revoke an invitation',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath.extend(keyPath('id').shape),
    answer: envelope(orgs.InvitationData),
  },
  'POST /api/orgs/{org}/invitations/{id}/resend': {
    summary: 'Mail an invitation again',
    tag: 'organisations',
    access: 'bearer',
    path: p.OrgPath.extend(keyPath('id').shape),
    answer: envelope(orgs.InvitationData),
  },
  'GET /api/invitations/{token}': {
    summary: 'What an invitation link offers',
    tag: 'organisations',
    access: 'none',
    path: keyPath('token'),
    answer: envelope(orgs.InvitationPreview),
  },
  'POST /api/invitations/accept': {
    summary: 'Accept an invitation',
    tag: 'organisations',
    access: 'bearer',
    body: orgs.AcceptInvitationRequest,
    answer: envelope(orgs.AcceptedInvitationData),
  },
  'GET /api/orgs/{org}/tokens': {
    summary: 'Organisation CI tokens',
    tag: 'keys',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.ApiKeysData),
  },
  'POST /api/orgs/{org}/tokens': {
    summary: 'Create an organisation CI token (shown once)',
    tag: 'keys',
    access: 'bearer',
    path: p.OrgPath,
    body: orgs.CreateOrganizationTokenRequest,
    answer: envelope(orgs.CreatedApiKeyData, 201),
  },
  'DELETE /api/orgs/{org}/tokens/{keyId}': {
    summary: 'Revoke an organisation CI token',
    tag: 'keys',
    access: 'bearer',
    path: p.OrgPath.extend(keyPath('keyId').shape),
    answer: envelope(orgs.ApiKeyData),
  },
  'GET /api/orgs/{org}/sso': {
    summary: "The organisation's OIDC connection (secret hidden)",
    tag: 'sso',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.SsoConnectionData),
  },
  'PUT /api/orgs/{org}/sso': {
    summary: 'Set the OIDC connection, domains and group roles',
    tag: 'sso',
    access: 'bearer',
    path: p.OrgPath,
    body: orgs.SsoConnectionRequest,
    answer: envelope(orgs.SsoConnectionData),
  },
  'DELETE /api/orgs/{org}/sso': {
    summary: 'Remove the OIDC connection',
    tag: 'sso',
    access: 'bearer',
    path: p.OrgPath,
    answer: envelope(orgs.SsoConnectionData),
  },
  'GET /api/orgs/{org}/audit': {
    summary: 'Audit log, newest first, filtered',
    tag: 'audit',
    access: 'bearer',
    path: p.OrgPath,
    query: p.AuditPageQuery,
    answer: envelope(orgs.AuditEventsData),
  },
  'GET /api/orgs/{org}/audit/export': {
    summary: 'Audit log as JSON lines',
    tag: 'audit',
    access: 'bearer',
    path: p.OrgPath,
    query: p.AuditFilterQuery,
    answer: { kind: 'file', media: ['application/x-ndjson'] },
  },

  'POST /upload': UploadOperation,
  'POST /api/upload': UploadOperation,
  'POST /api/v1/upload': UploadOperation,
  'GET /summary': SummaryOperation,
  'GET /api/summary': SummaryOperation,
  'GET /api/v1/summary': SummaryOperation,

  'GET /api/admin/ingest/failed': {
    summary: 'Ingestion jobs that failed for good',
    tag: 'admin',
    access: 'admin',
    query: p.AdminFailedQuery,
    answer: envelope(z.object({ total: z.int(), jobs: z.array(health.FailedIngestion) })),
  },
  'POST /api/admin/ingest/failed/{jobId}/retry': {
    summary: 'Retry a failed ingestion job',
    tag: 'admin',
    access: 'admin',
    path: JobPath,
    answer: envelope(z.object({ job_id: z.string() }), 202),
  },
} as const satisfies Record<string, Operation>;

export type Operations = typeof operations;
export type OperationKey = keyof Operations;

/** `data` of an operation's envelope (or auth answer). */
export type ApiData<K extends OperationKey> = Operations[K]['answer'] extends {
  data: infer S extends z.ZodType;
}
  ? z.output<S>
  : never;

/** The whole JSON answer of an operation with a body of its own (health, upload protocol). */
export type ApiJson<K extends OperationKey> = Operations[K]['answer'] extends {
  body: infer S extends z.ZodType;
}
  ? z.output<S>
  : never;

/** The request body an operation takes. */
export type ApiBody<K extends OperationKey> = Operations[K] extends {
  body: infer S extends z.ZodType;
}
  ? z.input<S>
  : never;

/** Path parameters, by name. */
export type ApiPath<K extends OperationKey> = Operations[K] extends {
  path: infer S extends z.ZodType;
}
  ? { [P in keyof z.input<S>]: string }
  : never;

/** Query parameters, by name; values are sent as text. */
export type ApiQuery<K extends OperationKey> = Operations[K] extends {
  query: infer S extends z.ZodType;
}
  ? { [P in keyof z.output<S>]?: string | number | boolean | null | undefined }
  : never;
