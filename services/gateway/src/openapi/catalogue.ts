/**
 * What the OpenAPI document says about each route, keyed by `METHOD /express/path`. Routes not
 * listed here still appear in the document (it is built from the router), with a generic
 * summary; a listed route that no longer exists fails the gateway's OpenAPI test.
 */
export interface RouteDoc {
  summary: string;
  tag: string;
  /** bearer: a user's access token; apiKey: a project API key; none: public. */
  auth: 'bearer' | 'apiKey' | 'admin' | 'none';
  /** The request body is JSON. */
  body?: boolean;
}

const user = (summary: string, tag: string, body = false): RouteDoc => ({
  summary,
  tag,
  auth: 'bearer',
  body,
});
const open = (summary: string, tag: string, body = false): RouteDoc => ({
  summary,
  tag,
  auth: 'none',
  body,
});

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /healthz': open('Liveness: the process serves HTTP', 'health'),
  'GET /readyz': open(
    'Readiness: Postgres, Redis, ClickHouse and the query service answer',
    'health',
  ),

  'GET /auth/settings': open('Which sign-in flows this deployment offers', 'auth'),
  'POST /auth/signup': open('Create an account', 'auth', true),
  'POST /auth/login': open('Sign in with email and password', 'auth', true),
  'POST /auth/refresh': open('Exchange a refresh token for new tokens (rotation)', 'auth', true),
  'POST /auth/logout': open('Revoke a refresh token', 'auth', true),
  'GET /auth/user': user('The signed-in user', 'auth'),
  'PUT /auth/password': user('Change the password', 'auth', true),
  'POST /auth/recover': open('Mail a password-reset link', 'auth', true),
  'POST /auth/reset-password': open('Set a new password with a reset token', 'auth', true),
  'GET /auth/confirm': open('Confirm an email address from a mailed link', 'auth'),
  'POST /auth/token': open('Exchange a one-time session hand-off code for tokens', 'auth', true),
  'GET /auth/oauth/:provider': open('Start OAuth sign-in (PKCE) with GitHub or Google', 'auth'),
  'GET /auth/oauth/:provider/callback': open('OAuth redirect target', 'auth'),

  'GET /api/projects': user('Projects of the signed-in user', 'projects'),
  'POST /api/projects': user('Create a project (returns its API key once)', 'projects', true),
  'PUT /api/projects/:id': user('Rename or edit a project', 'projects', true),
  'DELETE /api/projects/:id': user('Delete a project and its data', 'projects'),
  'POST /api/projects/:id/regenerate-api-key': user(
    'Issue a new API key; the old one stops working',
    'projects',
  ),
  'GET /api/projects/:id/members': user('Members and their roles', 'projects'),
  'POST /api/projects/:id/members': user(
    'Give an organisation member a role on the project, or invite anyone by email',
    'projects',
    true,
  ),
  'DELETE /api/projects/:id/members/:userId': user('Remove a project role', 'projects'),
  'PUT /api/projects/:id/favourite': user('Mark a project as a favourite', 'projects'),
  'DELETE /api/projects/:id/favourite': user('Unmark a favourite project', 'projects'),
  'GET /api/projects/:id/keys': user('API keys of a project (secrets hidden)', 'keys'),
  'POST /api/projects/:id/keys': user(
    'Create a named upload or read key (shown once)',
    'keys',
    true,
  ),
  'DELETE /api/projects/:id/keys/:keyId': user('Revoke an API key', 'keys'),
  'PUT /api/:project/:target/favourite': user('Mark a target as a favourite', 'targets'),
  'DELETE /api/:project/:target/favourite': user('Unmark a favourite target', 'targets'),

  'GET /api/orgs': user('Organisations of the signed-in user', 'organisations'),
  'POST /api/orgs': user('Create an organisation', 'organisations', true),
  'GET /api/orgs/:org': user('One organisation', 'organisations'),
  'PUT /api/orgs/:org': user(
    'Rename an organisation or set its audit retention',
    'organisations',
    true,
  ),
  'DELETE /api/orgs/:org': user('Delete an organisation without projects', 'organisations'),
  'GET /api/orgs/:org/members': user('Members and their roles', 'organisations'),
  'PUT /api/orgs/:org/members/:userId': user("Change a member's role", 'organisations', true),
  'DELETE /api/orgs/:org/members/:userId': user('Remove a member, or leave', 'organisations'),
  'GET /api/orgs/:org/invitations': user('Invitations', 'organisations'),
  'POST /api/orgs/:org/invitations': user('Invite by email', 'organisations', true),
  'DELETE /api/orgs/:org/invitations/:id': user('Revoke an invitation', 'organisations'),
  'POST /api/orgs/:org/invitations/:id/resend': user('Mail an invitation again', 'organisations'),
  'GET /api/invitations/:token': open('What an invitation link offers', 'organisations'),
  'POST /api/invitations/accept': user('Accept an invitation', 'organisations', true),
  'GET /api/orgs/:org/tokens': user('Organisation CI tokens', 'keys'),
  'POST /api/orgs/:org/tokens': user('Create an organisation CI token (shown once)', 'keys', true),
  'DELETE /api/orgs/:org/tokens/:keyId': user('Revoke an organisation CI token', 'keys'),
  'GET /api/orgs/:org/sso': user("The organisation's OIDC connection (secret hidden)", 'sso'),
  'PUT /api/orgs/:org/sso': user('Set the OIDC connection, domains and group roles', 'sso', true),
  'DELETE /api/orgs/:org/sso': user('Remove the OIDC connection', 'sso'),
  'GET /auth/sso': open('Start SSO sign-in for an email address or organisation', 'auth'),
  'GET /auth/sso/callback': open('SSO redirect target', 'auth'),
  'GET /api/orgs/:org/audit': user('Audit log, newest first, filtered', 'audit'),
  'GET /api/orgs/:org/audit/export': user('Audit log as JSON lines', 'audit'),

  'GET /api/projects/:id/public-access': user(
    'Public switch, linked GitHub repository and keyless uploads of a project',
    'projects',
  ),
  'PUT /api/projects/:id/public-access': user(
    'Change the public switch, repository link or keyless uploads (owners)',
    'projects',
    true,
  ),
  'GET /api/public/projects/:id': open('A public project as signed-out readers see it', 'public'),
  'GET /badge/:project/:file': open(
    'Badge of a target region of a public project: {target}.svg or shields.io {target}.json',
    'public',
  ),

  'GET /api/:project/targets': user(
    'Targets of a project (anyone for a public project)',
    'targets',
  ),
  'GET /api/:project/:target/region-config': user('Region configuration of a target', 'targets'),
  'PUT /api/:project/:target/region-config': user(
    'Replace the region configuration of a target',
    'targets',
    true,
  ),
  'GET /api/:project/:target/budgets': user('Budgets of a target', 'budgets'),
  'GET /api/:project/:target/budgets/status': user(
    'Every budget of a target at one commit, with its regions against their limits',
    'budgets',
  ),
  'POST /api/:project/:target/budgets': user('Add a budget', 'budgets', true),
  'PUT /api/:project/:target/budgets/:id': user('Change a budget', 'budgets', true),
  'DELETE /api/:project/:target/budgets/:id': user('Delete a budget', 'budgets'),

  'POST /upload': {
    summary:
      'Upload a memory report (JSON or gzip JSON), MemBrowse-compatible: project API key, ' +
      'GitHub Actions OIDC token, or X-Auth-Type: github-tokenless from a pull request',
    tag: 'upload',
    auth: 'apiKey',
    body: true,
  },
  'GET /summary': {
    summary: "Summary of a commit's reports across targets, for PR comments",
    tag: 'upload',
    auth: 'apiKey',
  },

  'GET /api/admin/ingest/failed': {
    summary: 'Ingestion jobs that failed for good',
    tag: 'admin',
    auth: 'admin',
  },
  'POST /api/admin/ingest/failed/:jobId/retry': {
    summary: 'Retry a failed ingestion job',
    tag: 'admin',
    auth: 'admin',
  },
};
