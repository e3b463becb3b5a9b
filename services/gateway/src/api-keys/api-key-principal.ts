import type { ApiKeyScope } from '@memtrail/contracts';

/** Who an accepted API key speaks for. */
export interface ApiKeyPrincipal {
  apiKeyId: string;
  name: string;
  scope: ApiKeyScope;
  organizationId: string;
  /**
   * The project the request acts on: the key's own, or for an organisation CI token the one the
   * request named (set by ApiKeyGuard).
   */
  projectId: string;
  /** True for an organisation CI token (may upload to any project of its organisation). */
  organizationToken: boolean;
}

/** A verified key before the project of an organisation token is chosen. */
export type VerifiedApiKey = Omit<ApiKeyPrincipal, 'projectId'> & { projectId: string | null };
