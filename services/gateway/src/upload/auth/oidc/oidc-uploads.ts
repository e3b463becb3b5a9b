import { ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { sameRepository } from '@memtrail/contracts';
import { SqlPool } from '@memtrail/db';
import type { ValidUpload } from '../../validate-upload.js';
import { PullRequests, type LinkedProject } from '../pull-requests.js';
import { KEY_HOLDER_POLICY, type UploadGrant, type Uploader } from '../uploader.js';
import { oidcPermission, type OidcPermission } from './oidc-permission.js';
import { OidcTokens } from './oidc-tokens.js';

/**
 * Uploads authenticated by a GitHub Actions OIDC token (`permissions: id-token: write`) sent
 * as `Authorization: Bearer <token>`: the token's audience names the project, which must have
 * turned OIDC uploads on and linked the token's repository. What it may then upload follows
 * from its event (oidc-permission.ts).
 */
@Injectable()
export class OidcUploads {
  constructor(
    @Inject(OidcTokens) private readonly tokens: OidcTokens,
    // Runs per upload: plain SQL (see SqlPool).
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(PullRequests) private readonly pullRequests: PullRequests,
  ) {}

  async uploader(token: string): Promise<Uploader> {
    const { projectId, claims } = await this.tokens.verify(token);
    const { rows } = await this.sql.query<{
      oidcUploads: boolean;
      githubRepository: string | null;
      githubRepositoryId: string | null;
    }>(
      `SELECT oidc_uploads AS "oidcUploads", github_repository AS "githubRepository",
              github_repository_id AS "githubRepositoryId"
       FROM projects WHERE id = $1 AND deleted_at IS NULL`,
      [projectId],
    );
    const row = rows[0];
    if (!row?.oidcUploads || !row.githubRepository) {
      throw new UnauthorizedException(
        `Project ${projectId} does not accept OIDC uploads: link its repository and turn ` +
          'OIDC uploads on in the project settings',
      );
    }
    if (!sameRepository(claims.repository, row.githubRepository)) {
      throw new UnauthorizedException(
        `The OIDC token is from ${claims.repository}; project ${projectId} takes uploads from ` +
          `${row.githubRepository}`,
      );
    }
    if (
      row.githubRepositoryId !== null &&
      claims.repository_id !== String(row.githubRepositoryId)
    ) {
      throw new UnauthorizedException(
        `The OIDC token is from a repository named ${claims.repository} with GitHub id ` +
          `${claims.repository_id ?? 'unknown'}, not the one linked (${row.githubRepositoryId}); ` +
          'link it again in the project settings',
      );
    }
    const project: LinkedProject = {
      id: projectId,
      repository: row.githubRepository,
      repositoryId: row.githubRepositoryId === null ? null : BigInt(row.githubRepositoryId),
    };
    const permission = oidcPermission(claims);
    return {
      rateLimit: { subject: `oidc:${projectId}`, what: "this project's OIDC uploads" },
      authorize: (upload) => this.authorize(project, permission, upload),
    };
  }

  private async authorize(
    project: LinkedProject,
    permission: OidcPermission,
    upload: ValidUpload,
  ): Promise<UploadGrant> {
    if (permission.kind === 'pull_request') {
      const pull = await this.pullRequests.verify(project, permission.number, upload.commitSha, {
        requirePublic: false,
      });
      return this.pullRequests.grant(project.id, upload, pull);
    }
    if (upload.branch !== null && upload.branch !== permission.branch) {
      throw new ForbiddenException(
        `This OIDC token may upload to branch ${permission.branch} only; the upload is for ` +
          `branch ${upload.branch}`,
      );
    }
    return {
      projectId: project.id,
      upload: { ...upload, branch: permission.branch },
      policy: KEY_HOLDER_POLICY,
    };
  }
}
