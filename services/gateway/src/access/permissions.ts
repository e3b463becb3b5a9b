/**
 * The permission table: what each role may do. Roles are ordered (viewer < member < admin <
 * owner) and every permission names the weakest role that has it, so a stronger role can do
 * everything a weaker one can. An organisation role applies to each of its projects unless a
 * project override says otherwise. docs/operations.md prints this table; a test keeps the two
 * equal, and another checks every role against every endpoint.
 */
export const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  'project:read': {
    minimum: 'viewer',
    what: 'read reports, diffs, series, targets, budgets, region config and members',
  },
  'keys:create': {
    minimum: 'member',
    what: 'list API keys, create upload and read keys, revoke keys they created',
  },
  'project:configure': {
    minimum: 'admin',
    what: 'create, edit and delete budgets; edit region config',
  },
  'project:rename': {
    minimum: 'admin',
    what: 'rename a project, edit its description and settings',
  },
  'keys:manage': { minimum: 'admin', what: 'revoke any key, regenerate the key' },
  'members:manage': {
    minimum: 'admin',
    what: 'invite, change and remove members and project overrides (owners only grant owner)',
  },
  'project:create': { minimum: 'admin', what: 'create projects in the organisation' },
  'audit:read': { minimum: 'admin', what: 'read and export the audit log' },
  'project:delete': { minimum: 'owner', what: 'delete a project and all its data' },
  'org:manage': {
    minimum: 'owner',
    what: 'rename or delete the organisation, audit retention, SSO, organisation CI tokens',
  },
} as const satisfies Record<string, { minimum: Role; what: string }>;

export type Permission = keyof typeof PERMISSIONS;

export function rank(role: Role): number {
  return ROLES.indexOf(role);
}

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && rank(role) >= rank(PERMISSIONS[permission].minimum);
}

/** The stronger of two roles (either may be missing). */
export function strongest(a: Role | null | undefined, b: Role | null | undefined): Role | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return rank(a) >= rank(b) ? a : b;
}
