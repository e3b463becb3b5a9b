import { BadRequestException } from '@nestjs/common';
import { GITHUB_REPOSITORY_MESSAGE, parseGithubRepository } from '@memtrail/contracts';

type Body = Record<string, unknown> | undefined;

/** A validated `PUT …/public-access` body: only the fields sent. */
export interface PublicAccessChange {
  public?: boolean;
  /** `owner/name`, or null to unlink. */
  repository?: string | null;
  tokenless_uploads?: boolean;
  oidc_uploads?: boolean;
}

const SWITCHES = ['public', 'tokenless_uploads', 'oidc_uploads'] as const;

export function publicAccessChange(body: Body): PublicAccessChange {
  const change: PublicAccessChange = {};
  for (const key of SWITCHES) {
    if (!body || !(key in body)) continue;
    if (typeof body[key] !== 'boolean')
      throw new BadRequestException(`${key} must be true or false`);
    change[key] = body[key];
  }
  if (body && 'repository' in body) {
    const value = body.repository;
    if (value === null || value === '') change.repository = null;
    else {
      const parsed = typeof value === 'string' ? parseGithubRepository(value) : null;
      if (!parsed) throw new BadRequestException(GITHUB_REPOSITORY_MESSAGE);
      change.repository = parsed;
    }
  }
  if (Object.keys(change).length === 0) {
    throw new BadRequestException(
      'Send public, repository, tokenless_uploads or oidc_uploads to update',
    );
  }
  return change;
}
