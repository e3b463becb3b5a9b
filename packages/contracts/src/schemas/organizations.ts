import { z } from 'zod';
import { ROLE_NAMES } from '../organizations.js';
import { normalizeEmail, validateEmail } from '../validation.js';
import { isoTime } from './common.js';
import { check, textField } from './inputs.js';

/**
 * Organisations, roles, invitations, API keys, SSO and the audit log (gateway `/api/orgs/…`,
 * `/api/projects/{id}/keys`, `/api/invitations/…`). Answers use the envelope.
 */

const roleMessage = (field: string) => `${field} must be viewer, member, admin or owner`;
/** Weakest first; docs/operations.md has what each may do. */
export const Role = z.enum(ROLE_NAMES, { error: roleMessage('role') });
export type Role = z.infer<typeof Role>;
const roleField = (field: string) => z.enum(ROLE_NAMES, { error: roleMessage(field) });

export const Organization = z
  .object({
    id: z.string(),
    name: z.string(),
    personal: z.boolean().describe("True for a user's personal organisation"),
    role: Role.describe("The caller's role"),
    audit_retention_days: z.int().nullable(),
    sso: z.object({ enforced: z.boolean(), domains: z.array(z.string()) }).nullable(),
    project_count: z.int(),
    created_at: isoTime,
  })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof Organization>;
export const OrganizationsData = z
  .object({ organizations: z.array(Organization) })
  .meta({ id: 'OrganizationsData' });
export type OrganizationsData = z.infer<typeof OrganizationsData>;
export const OrganizationData = z
  .object({ organization: Organization })
  .meta({ id: 'OrganizationData' });
export type OrganizationData = z.infer<typeof OrganizationData>;
export const DeletedOrganizationData = z.object({ id: z.string() });

export const OrganizationMember = z
  .object({
    user_id: z.string(),
    email: z.string(),
    full_name: z.string().nullable(),
    role: Role,
    source: z.string().describe('"created", "invitation", "sso" or "manual"'),
    created_at: isoTime,
  })
  .meta({ id: 'OrganizationMember' });
export type OrganizationMember = z.infer<typeof OrganizationMember>;
export const OrganizationMembersData = z
  .object({ members: z.array(OrganizationMember) })
  .meta({ id: 'OrganizationMembersData' });
export type OrganizationMembersData = z.infer<typeof OrganizationMembersData>;

export const Invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: Role,
    project_id: z.string().nullable(),
    status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
    expires_at: isoTime,
    sent_at: isoTime,
    created_at: isoTime,
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;
export const InvitationsData = z
  .object({ invitations: z.array(Invitation) })
  .meta({ id: 'InvitationsData' });
export type InvitationsData = z.infer<typeof InvitationsData>;
export const InvitationData = z.object({ invitation: Invitation }).meta({ id: 'InvitationData' });
export type InvitationData = z.infer<typeof InvitationData>;

/** What the person opening an invitation link sees before accepting. */
export const InvitationPreview = z
  .object({
    organization_name: z.string(),
    project_name: z.string().nullable(),
    role: Role,
    email: z.string(),
    expires_at: isoTime,
  })
  .meta({ id: 'InvitationPreview' });
export type InvitationPreview = z.infer<typeof InvitationPreview>;
export const AcceptedInvitationData = z
  .object({ organization_id: z.string(), project_id: z.string().nullable() })
  .meta({ id: 'AcceptedInvitationData' });
export type AcceptedInvitationData = z.infer<typeof AcceptedInvitationData>;

export const ApiKeyScope = z.enum(['upload', 'read']);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;
export const ApiKeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    scope: ApiKeyScope,
    masked: z.string().describe('mt_<publicId>_••••••••'),
    created_at: isoTime,
    created_by: z.string().nullable(),
    expires_at: isoTime.nullable(),
    last_used_at: isoTime.nullable(),
    last_user_agent: z.string().nullable(),
    last_ip: z.string().nullable(),
    revoked_at: isoTime.nullable(),
  })
  .meta({ id: 'ApiKeyInfo' });
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;
export const ApiKeysData = z.object({ keys: z.array(ApiKeyInfo) }).meta({ id: 'ApiKeysData' });
export type ApiKeysData = z.infer<typeof ApiKeysData>;
export const ApiKeyData = z.object({ key: ApiKeyInfo }).meta({ id: 'ApiKeyData' });
/** A new key: the only time its secret is shown. */
export const CreatedApiKeyData = z
  .object({ key: ApiKeyInfo, api_key: z.string() })
  .meta({ id: 'CreatedApiKeyData' });
export type CreatedApiKeyData = z.infer<typeof CreatedApiKeyData>;

export const GroupRole = z.object({ group: z.string(), role: Role }).meta({ id: 'GroupRole' });
export type GroupRole = z.infer<typeof GroupRole>;
export const SsoConnection = z
  .object({
    issuer: z.string(),
    client_id: z.string(),
    client_secret_set: z
      .boolean()
      .describe('The secret is never returned; true when one is stored'),
    domains: z.array(z.string()),
    enforced: z.boolean(),
    groups_claim: z.string(),
    group_roles: z.array(GroupRole),
    default_role: Role.nullable(),
    redirect_uri: z
      .string()
      .describe('Where the provider must send users back (register it at the provider)'),
  })
  .meta({ id: 'SsoConnection' });
export type SsoConnection = z.infer<typeof SsoConnection>;
export const SsoConnectionData = z
  .object({ sso: SsoConnection.nullable() })
  .meta({ id: 'SsoConnectionData' });
export type SsoConnectionData = z.infer<typeof SsoConnectionData>;

export const AuditEvent = z
  .object({
    id: z.string(),
    action: z.string(),
    project_id: z.string().nullable(),
    actor: z.object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }),
    details: z.record(z.string(), z.unknown()),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    created_at: isoTime,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;
export const AuditEventsData = z
  .object({
    events: z.array(AuditEvent),
    next_before: z
      .string()
      .nullable()
      .describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'AuditEventsData' });
export type AuditEventsData = z.infer<typeof AuditEventsData>;

// ------------------------------------------------------------------------------------------
// requests
// ------------------------------------------------------------------------------------------

const NAME_MAX = 100;
const noAngleBrackets = (message: string) =>
  textField(message)
    .transform((name) => name.trim())
    .superRefine(
      check((name) => (!name || name.length > NAME_MAX || /[<>]/.test(name) ? message : null)),
    )
    .meta({ minLength: 1, maxLength: NAME_MAX });

const organizationName = noAngleBrackets(
  `Organization name must be 1-${NAME_MAX} characters, without angle brackets`,
);

export const CreateOrganizationRequest = z
  .object({ name: organizationName })
  .meta({ id: 'CreateOrganizationRequest' });

export const UpdateOrganizationRequest = z
  .object({
    name: organizationName.optional(),
    audit_retention_days: z
      .int({ error: 'audit_retention_days must be an integer from 1 to 3650, or null' })
      .min(1, 'audit_retention_days must be an integer from 1 to 3650, or null')
      .max(3650, 'audit_retention_days must be an integer from 1 to 3650, or null')
      .nullable()
      .optional()
      .describe('Days the audit log is kept; null keeps it forever'),
  })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.audit_retention_days === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Send name or audit_retention_days to update' });
    }
  })
  .meta({ id: 'UpdateOrganizationRequest' });

export const SetRoleRequest = z.object({ role: Role }).meta({ id: 'SetRoleRequest' });

/** Invitations are by email, whether or not the address has an account. */
const invitationEmail = z
  .string()
  .catch('')
  .transform(normalizeEmail)
  .superRefine(check(validateEmail))
  .meta({ type: 'string', format: 'email', maxLength: 254 });

export const InviteRequest = z
  .object({ email: invitationEmail, role: Role.default('member') })
  .meta({ id: 'InviteRequest' });

export const AcceptInvitationRequest = z
  .object({
    token: z
      .string({ error: 'token is required' })
      .min(1, 'token is required')
      .describe('The token of the mailed link'),
  })
  .meta({ id: 'AcceptInvitationRequest' });

const keyName = noAngleBrackets(
  `Key name must be 1-${NAME_MAX} characters, without angle brackets`,
);
const expiresAt = z
  .string({ error: 'expires_at must be an ISO 8601 date or null' })
  .transform((text, ctx) => {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'expires_at must be an ISO 8601 date or null' });
      return z.NEVER;
    }
    if (date.getTime() <= Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'expires_at must be in the future' });
      return z.NEVER;
    }
    return date;
  })
  .nullish()
  .transform((date) => date ?? null)
  .meta({ format: 'date-time', description: 'Omitted or null: never expires' });

/** A project key: an upload key (the default) or a read key. */
export const CreateProjectKeyRequest = z
  .object({
    name: keyName,
    scope: z.enum(['upload', 'read'], { error: 'scope must be upload or read' }).default('upload'),
    expires_at: expiresAt,
  })
  .meta({ id: 'CreateProjectKeyRequest' });

/** An organisation CI token: upload only. */
export const CreateOrganizationTokenRequest = z
  .object({
    name: keyName,
    scope: z.enum(['upload'], { error: 'scope must be upload' }).default('upload'),
    expires_at: expiresAt,
  })
  .meta({ id: 'CreateOrganizationTokenRequest' });

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const GROUPS_MAX = 200;

/** Optional text: absent, null and '' are not given; anything else must be short text. */
const optionalText = (name: string, max: number) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === null || value === '') return undefined;
      if (typeof value === 'string' && value.trim().length <= max) return value.trim();
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be text of at most ${max} characters`,
      });
      return z.NEVER;
    })
    .meta({ override: { type: 'string', maxLength: max } });

const requiredText = (name: string, max: number) =>
  optionalText(name, max)
    .superRefine(check((value) => (value === undefined ? `${name} is required` : null)))
    .transform((value) => value!);

/** The organisation's OIDC connection; the client secret is required the first time only. */
export const SsoConnectionRequest = z
  .object({
    client_secret: optionalText('client_secret', 1000).describe(
      'Required when creating; omitted on an update keeps the stored one',
    ),
    domains: z
      .array(z.unknown(), { error: 'domains must list 1-20 email domains' })
      .min(1, 'domains must list 1-20 email domains')
      .max(20, 'domains must list 1-20 email domains')
      .transform((list, ctx) => {
        const domains = list.map((d) => (typeof d === 'string' ? d.trim().toLowerCase() : ''));
        const bad = domains.find((d) => !DOMAIN.test(d));
        if (bad === undefined) return [...new Set(domains)];
        ctx.addIssue({ code: 'custom', message: `"${bad}" is not an email domain` });
        return z.NEVER;
      })
      .meta({ override: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 20 } }),
    default_role: roleField('default_role')
      .nullable()
      .optional()
      .transform((role) => (role === undefined ? 'member' : role))
      .superRefine(check((role) => (role === 'owner' ? 'default_role cannot be owner' : null)))
      .describe('The role of people the group mapping gives none; null admits only mapped groups'),
    issuer: requiredText('issuer', 1000)
      .superRefine(
        check((value) => {
          let url: URL;
          try {
            url = new URL(value);
          } catch {
            return 'issuer must be the URL of an OpenID Connect issuer';
          }
          return url.protocol === 'https:' || url.protocol === 'http:'
            ? null
            : 'issuer must be an http(s) URL';
        }),
      )
      .transform((value) => value.replace(/\/+$/, '')),
    client_id: requiredText('client_id', 500),
    enforced: z
      .unknown()
      .optional()
      .transform((value) => value === true)
      .meta({ override: { type: 'boolean', default: false } }),
    groups_claim: optionalText('groups_claim', 100).transform((value) => value ?? 'groups'),
    group_roles: z
      .array(
        z
          .object({
            group: z
              .unknown()
              .transform((g) => (typeof g === 'string' ? g.trim() : ''))
              .meta({ override: { type: 'string', minLength: 1, maxLength: 256 } }),
            role: z.unknown().meta({ override: { type: 'string', enum: [...ROLE_NAMES] } }),
          })
          .catch({ group: '', role: undefined }),
        { error: `group_roles must list at most ${GROUPS_MAX} {group, role}` },
      )
      .max(GROUPS_MAX, `group_roles must list at most ${GROUPS_MAX} {group, role}`)
      .optional()
      .transform((entries, ctx) => {
        const roles: GroupRole[] = [];
        for (const [index, { group, role }] of (entries ?? []).entries()) {
          const parsed = roleField(`group_roles[${index}].role`).safeParse(role);
          const problem =
            !group || group.length > 256
              ? `group_roles[${index}].group must be 1-256 characters`
              : parsed.success
                ? null
                : parsed.error.issues[0]!.message;
          if (problem) {
            ctx.addIssue({ code: 'custom', message: problem });
            return z.NEVER;
          }
          roles.push({ group, role: parsed.data! });
        }
        return roles;
      }),
  })
  .meta({ id: 'SsoConnectionRequest' });
