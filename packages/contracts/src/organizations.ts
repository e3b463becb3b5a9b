/**
 * Organisations, roles, invitations, API keys, SSO and the audit log (gateway `/api/orgs/…`,
 * `/api/projects/{id}/keys`, `/api/invitations/…`). Answers use the envelope of envelope.ts.
 */

/** Weakest first; docs/operations.md has what each may do. */
export const ROLE_NAMES = ['viewer', 'member', 'admin', 'owner'] as const;

/** The web app names the chosen organisation in this header; the API filters by it. */
export const ORGANIZATION_HEADER = 'x-memtrail-organization';
/** An organisation CI token names the project it uploads to in this header (id or name). */
export const PROJECT_HEADER = 'x-memtrail-project';
