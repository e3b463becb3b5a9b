import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import {
  oidcAudience,
  type PublicAccessData,
  type PublicAccessSettings,
} from '@memtrail/contracts';
import { PrismaClient, type Prisma } from '@memtrail/db';
import type { Request } from 'express';
import { AuditService } from '../audit/audit.service.js';
import { GatewayConfig } from '../config.js';
import { GithubApi, type GithubRepository } from '../github/github-api.js';
import type { BodyOf } from '../http/input.js';

/** A validated `PUT …/public-access` body: only the fields sent. */
type PublicAccessChange = BodyOf<'PUT /api/projects/{id}/public-access'>;

const SETTINGS = {
  public: true,
  githubRepository: true,
  githubRepositoryId: true,
  tokenlessUploads: true,
  oidcUploads: true,
} as const;

interface SettingsRow {
  public: boolean;
  githubRepository: string | null;
  githubRepositoryId: bigint | null;
  tokenlessUploads: boolean;
  oidcUploads: boolean;
}

const settingsOf = (row: SettingsRow): PublicAccessSettings => ({
  public: row.public,
  repository: row.githubRepository,
  tokenless_uploads: row.tokenlessUploads,
  oidc_uploads: row.oidcUploads,
});

/**
 * A project's public switch, its linked GitHub repository and the keyless uploads that need
 * that link. Linking asks the GitHub API for the repository's canonical name and id; turning
 * tokenless uploads on needs a public repository that no other project takes them for.
 */
@Injectable()
export class PublicAccessService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(GithubApi) private readonly github: GithubApi,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(AuditService) private readonly audit: AuditService,
  ) {}

  async get(projectId: string): Promise<PublicAccessData> {
    const row = await this.prisma.project.findUnique({
      where: { id: projectId },
      select: SETTINGS,
    });
    if (!row) throw new NotFoundException(`Project ${projectId} not found`);
    return this.data(projectId, row);
  }

  async update(
    projectId: string,
    change: PublicAccessChange,
    req: Request,
  ): Promise<PublicAccessData> {
    const current = await this.prisma.project.findUnique({
      where: { id: projectId },
      select: SETTINGS,
    });
    if (!current) throw new NotFoundException(`Project ${projectId} not found`);

    let repository = current.githubRepository;
    let repositoryId = current.githubRepositoryId;
    let seen: GithubRepository | null | undefined;
    if (change.repository !== undefined && change.repository !== repository) {
      seen = change.repository === null ? null : await this.github.repository(change.repository);
      repository = seen?.fullName ?? change.repository;
      repositoryId = seen ? BigInt(seen.id) : null;
    }
    const relinked = repository !== current.githubRepository;
    const tokenless = change.tokenless_uploads ?? (current.tokenlessUploads && !relinked);
    const oidc = change.oidc_uploads ?? (current.oidcUploads && !relinked);
    if (!repository && (tokenless || oidc)) {
      throw new BadRequestException('Link a GitHub repository before turning on keyless uploads');
    }
    if (tokenless && (relinked || !current.tokenlessUploads)) {
      seen ??= await this.github.repository(repository!);
      if (!seen || seen.private) {
        throw new BadRequestException(
          `GitHub does not show ${repository} as a public repository: tokenless uploads are ` +
            'only accepted from pull requests of public repositories (use OIDC for private ones)',
        );
      }
    }

    const row = await this.prisma.$transaction(async (tx) => {
      if (tokenless) {
        // Serialised per repository, so two projects cannot both take its tokenless uploads.
        // eslint-disable-next-line no-restricted-properties -- must run in this transaction
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`tokenless/${repository!.toLowerCase()}`}, 0))`;
        const taken = await tx.project.findFirst({
          where: {
            id: { not: projectId },
            tokenlessUploads: true,
            githubRepository: { equals: repository!, mode: 'insensitive' },
          },
          select: { id: true },
        });
        if (taken) {
          throw new ConflictException(
            `Another project already takes the tokenless uploads of ${repository}`,
          );
        }
      }
      const updated = await tx.project.update({
        where: { id: projectId },
        data: {
          ...(change.public === undefined ? {} : { public: change.public }),
          githubRepository: repository,
          githubRepositoryId: repositoryId,
          tokenlessUploads: tokenless,
          oidcUploads: oidc,
        },
        select: SETTINGS,
      });
      await this.record(projectId, current, updated, req, tx);
      return updated;
    });
    return this.data(projectId, row);
  }

  /**
   * The audit log's events of a change: the public switch on its own (the change readers of the
   * log look for), the repository and keyless uploads together.
   */
  private async record(
    projectId: string,
    before: SettingsRow,
    after: SettingsRow,
    req: Request,
    tx: Prisma.TransactionClient,
  ): Promise<void> {
    if (before.public !== after.public) {
      const action = after.public ? 'project.made_public' : 'project.made_private';
      await this.audit.record({ action, projectId }, req, tx);
    }
    const changed = (['githubRepository', 'tokenlessUploads', 'oidcUploads'] as const).filter(
      (field) => before[field] !== after[field],
    );
    if (changed.length === 0) return;
    const names = {
      githubRepository: 'repository',
      tokenlessUploads: 'tokenless_uploads',
      oidcUploads: 'oidc_uploads',
    };
    const details = Object.fromEntries(
      changed.map((field) => [names[field], { from: before[field], to: after[field] }]),
    );
    await this.audit.record(
      { action: 'project.keyless_uploads_updated', projectId, details },
      req,
      tx,
    );
  }

  private data(projectId: string, row: SettingsRow): PublicAccessData {
    const web = (this.config.PUBLIC_URL ?? this.config.CORE_URL).replace(/\/+$/, '');
    const core = this.config.CORE_URL.replace(/\/+$/, '');
    return {
      settings: settingsOf(row),
      oidc_audience: oidcAudience(projectId),
      public_url: `${web}/project/${projectId}`,
      badge_base_url: `${core}/badge/${projectId}`,
    };
  }
}
