import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { SqlPool } from '@memtrail/db';
import type { Request } from 'express';
import { GatewayConfig } from '../../../config.js';
import { RateLimitService } from '../../../rate-limit/rate-limit.service.js';
import type { ValidUpload } from '../../validate-upload.js';
import { PullRequests } from '../pull-requests.js';
import type { UploadGrant, Uploader } from '../uploader.js';

/**
 * The MemBrowse CLI's tokenless uploads (`X-Auth-Type: github-tokenless`, membrowse-compat.md
 * §3.3) from pull requests of public repositories, which have no secrets (forks, Dependabot).
 * The upload names its repository, pull request and head commit in `metadata.github_context`;
 * the project that linked that repository and opted in takes it once the GitHub API confirms
 * the repository is public and the pull request open with that head. Anyone can send one, so
 * they are counted per client IP before the body is decoded and per project before GitHub is
 * asked.
 */
@Injectable()
export class TokenlessUploads {
  constructor(
    // Runs per upload: plain SQL (see SqlPool).
    @Inject(SqlPool) private readonly sql: SqlPool,
    @Inject(PullRequests) private readonly pullRequests: PullRequests,
    @Inject(RateLimitService) private readonly limits: RateLimitService,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  async uploader(req: Request): Promise<Uploader> {
    await this.count(`tokenless:ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`);
    return { rateLimit: null, authorize: (upload) => this.authorize(upload) };
  }

  private async authorize(upload: ValidUpload): Promise<UploadGrant> {
    const context = upload.githubContext;
    if (!context) {
      throw new UnauthorizedException(
        'A tokenless upload needs metadata.github_context (the MemBrowse CLI adds it with ' +
          '--github on pull_request events); otherwise send Authorization: Bearer <key>',
      );
    }
    const { rows } = await this.sql.query<{
      id: string;
      githubRepository: string;
      githubRepositoryId: string | null;
    }>(
      `SELECT id, github_repository AS "githubRepository",
              github_repository_id AS "githubRepositoryId"
       FROM projects
       WHERE github_repository = $1 AND tokenless_uploads AND deleted_at IS NULL LIMIT 1`,
      [context.repository],
    );
    const project = rows[0];
    if (!project) {
      throw new UnauthorizedException(
        `No project takes tokenless uploads from ${context.repository}: link the repository ` +
          'and turn tokenless uploads on in the project settings',
      );
    }
    await this.count(`tokenless:project:${project.id}`);
    if (context.commitSha !== upload.commitSha) {
      throw new UnauthorizedException(
        `metadata.github_context.commit_sha (${context.commitSha}) is not the uploaded commit ` +
          `(${upload.commitSha})`,
      );
    }
    const linked = {
      id: project.id,
      repository: project.githubRepository,
      repositoryId: project.githubRepositoryId === null ? null : BigInt(project.githubRepositoryId),
    };
    const pull = await this.pullRequests.verify(linked, context.prNumber, upload.commitSha, {
      requirePublic: true,
    });
    return this.pullRequests.grant(project.id, upload, pull);
  }

  private count(subject: string): Promise<void> {
    const limit = this.config.UPLOAD_TOKENLESS_RATE_LIMIT_PER_MINUTE;
    return this.limits.perMinute('upload', subject, limit, 'tokenless uploads');
  }
}
