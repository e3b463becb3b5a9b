import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { ApiKeyInfo, CreatedApiKeyData, RegeneratedKeyData } from '@memtrail/contracts';
import { PrismaClient, type ApiKey } from '@memtrail/db';
import type { Request } from 'express';
import { requireUuid } from '../access/access.service.js';
import { can, type Role } from '../access/permissions.js';
import { AuditService } from '../audit/audit.service.js';
import type { BodyOf } from '../http/input.js';
import { maskApiKey } from './api-key-format.js';
import { issueApiKey } from './api-key.service.js';

/** Revoked keys stay listed this long, so a rotation can be checked afterwards. */
const REVOKED_SHOWN_DAYS = 30;

type Owner = { projectId: string } | { organizationId: string };
type Actor = { userId: string; role: Role };

/** A new key's name, scope and expiry, as the key-creating operations parse them. */
export type KeyInput = BodyOf<'POST /api/projects/{id}/keys'>;

type KeyRow = ApiKey & { createdBy: { email: string } | null };

export function toApiKeyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    masked: maskApiKey(row.publicId),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy?.email ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    last_user_agent: row.lastUserAgent,
    last_ip: row.lastIp,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

const withCreator = { createdBy: { select: { email: true } } } as const;

/**
 * Named API keys of a project (upload or read scope) and CI tokens of an organisation: list,
 * create (the secret shown once), revoke. Rotation without downtime is: create a key, move the
 * CI secrets to it, revoke the old key once its last use is old enough. `regenerate` is the
 * one-step form the spec names, which breaks every pipeline still using the old keys.
 */
@Injectable()
export class KeyManagementService {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly audit: AuditService,
  ) {}

  async list(owner: Owner): Promise<ApiKeyInfo[]> {
    const shownSince = new Date(Date.now() - REVOKED_SHOWN_DAYS * 24 * 3600_000);
    const rows = await this.prisma.apiKey.findMany({
      where: { ...owner, OR: [{ revokedAt: null }, { revokedAt: { gt: shownSince } }] },
      include: withCreator,
      orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }],
      take: 500,
    });
    return rows.map(toApiKeyInfo);
  }

  async create(
    owner: Owner,
    input: KeyInput,
    userId: string,
    req: Request,
  ): Promise<CreatedApiKeyData> {
    return this.prisma.$transaction(async (tx) => {
      const { name, scope, expires_at: expiresAt } = input;
      const issued = await issueApiKey(tx, owner, { name, scope, expiresAt, createdById: userId });
      const row = await tx.apiKey.findUniqueOrThrow({
        where: { id: issued.apiKeyId },
        include: withCreator,
      });
      await this.audit.record(
        {
          action: 'organizationId' in owner ? 'ci_token.created' : 'api_key.created',
          ...owner,
          details: {
            key_id: row.id,
            name: row.name,
            scope: row.scope,
            expires_at: expiresAt,
          },
        },
        req,
        tx,
      );
      return { key: toApiKeyInfo(row), api_key: issued.key };
    });
  }

  /** Members may revoke the keys they created; any other key takes keys:manage. */
  async revoke(owner: Owner, keyId: string, actor: Actor, req: Request): Promise<ApiKeyInfo> {
    const row = await this.prisma.apiKey.findFirst({
      where: { id: requireUuid(keyId, 'API key'), ...owner },
      include: withCreator,
    });
    if (!row) throw new NotFoundException(`API key ${keyId} not found`);
    if (row.createdById !== actor.userId && !can(actor.role, 'keys:manage')) {
      throw new ForbiddenException('Only owners and admins can revoke keys created by others');
    }
    if (row.revokedAt) return toApiKeyInfo(row);
    return this.prisma.$transaction(async (tx) => {
      const revoked = await tx.apiKey.update({
        where: { id: keyId },
        data: { revokedAt: new Date() },
        include: withCreator,
      });
      await this.audit.record(
        {
          action: 'organizationId' in owner ? 'ci_token.revoked' : 'api_key.revoked',
          ...owner,
          details: {
            key_id: keyId,
            name: row.name,
            last_used_at: row.lastUsedAt?.toISOString() ?? null,
          },
        },
        req,
        tx,
      );
      return toApiKeyInfo(revoked);
    });
  }

  /**
   * The spec's "regenerate": a new upload key replaces every live upload key of the project in
   * one step. Read keys are left alone. The answer says what it broke.
   */
  async regenerate(projectId: string, userId: string, req?: Request): Promise<RegeneratedKeyData> {
    return this.prisma.$transaction(async (tx) => {
      const live = await tx.apiKey.findMany({
        where: { projectId, revokedAt: null, scope: 'upload' },
        select: { id: true, name: true },
        orderBy: { createdAt: 'asc' },
      });
      await tx.apiKey.updateMany({
        where: { id: { in: live.map((k) => k.id) } },
        data: { revokedAt: new Date() },
      });
      const name = live.length === 1 ? live[0]!.name : 'Default';
      const issued = await issueApiKey(tx, { projectId }, { name, createdById: userId });
      const revoked = live.map((k) => k.name);
      await this.audit.record(
        {
          action: 'api_key.regenerated',
          projectId,
          details: { key_id: issued.apiKeyId, revoked_key_ids: live.map((k) => k.id), revoked },
        },
        req,
        tx,
      );
      return {
        api_key: issued.key,
        api_key_masked: issued.masked,
        revoked,
        warning:
          revoked.length === 0
            ? 'No upload key was live; nothing stopped working.'
            : `Revoked ${revoked.length} upload key(s) (${revoked.join(', ')}): every CI pipeline still using them fails to upload until its secret holds the new key. To rotate without downtime, create a second key, move the secrets to it, then revoke the old key.`,
      };
    });
  }
}
