import { ForbiddenException } from '@nestjs/common';
import type { ActionsClaims } from './oidc-tokens.js';

/** What a verified token of the project's repository may upload. */
export type OidcPermission =
  /** Any commit, replacing reports and creating targets, as a project key may, on one branch. */
  | { kind: 'branch'; branch: string }
  /** Only the head commit of one pull request, adding reports as a tokenless upload may. */
  | { kind: 'pull_request'; number: number };

/**
 * Events only people with write access to the repository can start, running the repository's
 * own workflow code: such a workflow could read the project's API key from the secrets anyway.
 */
const BRANCH_EVENTS = new Set([
  'push',
  'workflow_dispatch',
  'schedule',
  'repository_dispatch',
  'merge_group',
]);

/**
 * The permission of a token, from its event and ref (docs/public-projects.md "OIDC tokens").
 * `pull_request` tokens name the base repository even when the pull request comes from a fork
 * whose code the workflow runs, so they get only what a tokenless upload gets.
 * `pull_request_target`, `workflow_run` and other events that run for untrusted pull requests
 * with the base branch as their ref are refused: their ref would otherwise let a fork's build
 * write to the base branch.
 */
export function oidcPermission(claims: ActionsClaims): OidcPermission {
  const { event_name: event, ref } = claims;
  if (event === 'pull_request') {
    const pull = /^refs\/pull\/(\d+)\/(?:merge|head)$/.exec(ref);
    if (pull) return { kind: 'pull_request', number: Number(pull[1]) };
    throw new ForbiddenException(`A pull_request token with ref "${ref}" names no pull request`);
  }
  if (BRANCH_EVENTS.has(event)) {
    if (ref.startsWith('refs/heads/')) return { kind: 'branch', branch: ref.slice(11) };
    throw new ForbiddenException(
      `OIDC tokens of ${event} events on "${ref}" cannot upload: only branch refs can`,
    );
  }
  throw new ForbiddenException(
    `OIDC tokens of ${event} events cannot upload: use push, workflow_dispatch, schedule, ` +
      'repository_dispatch or merge_group for branches, pull_request for pull requests',
  );
}
