import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ApiKeyScope } from '@memtrail/contracts';
import { PrismaClient, SqlPool, type Prisma } from '@memtrail/db';
import { AuditService } from '../audit/audit.service.js';
import type { VerifiedApiKey } from './api-key-principal.js';
import {
  generateApiKey,
  hashApiKeySecret,
  maskApiKey,
  parseApiKey,
  verifyApiKeySecret,
} from './api-key-format.js';

/** Where a key is used from, recorded as its last use. */
export interface KeyUse {
  ip?: string;
  userAgent?: string;
}

export interface IssuedApiKey {
  apiKeyId: string;
  /** The full key: return it to the user once, it cannot be recovered later. */
  key: string;
  masked: string;
}

export interface KeyFields {
  name?: string;
  scope?: ApiKeyScope;
  expiresAt?: Date | null;
  createdById?: string | null;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** Last use is a hint for the UI: writing it on every upload would be wasted load. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** Key × address pairs known to be recorded, so most uploads skip the insert. */
const SEEN_ADDRESSES_MAX = 10_000;

interface KeyRow {
  id: string;
  name: string;
  scope: ApiKeyScope;
  projectId: string | null;
  organizationId: string;
  organizationToken: boolean;
  secretHash: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUserAgent: string | null;
  lastIp: string | null;
}

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  private readonly seenAddresses = new Set<string>();

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    // Every upload verifies a key: plain SQL keeps that off Prisma's per-query cost.
    @Inject(SqlPool) private readonly sql: SqlPool,
    private readonly audit: AuditService,
  ) {}

  /**
   * The key a raw key (`mt_<publicId>_<secret>`) is, or null when it is malformed, unknown,
   * revoked, expired or its secret does not match. Never throws for bad input. `use` records
   * where it was used from; a first use from a new address is audited.
   */
  async verify(rawKey: string, use: KeyUse = {}): Promise<VerifiedApiKey | null> {
    const parsed = parseApiKey(rawKey);
    if (!parsed) return null;
    const { rows } = await this.sql.query<KeyRow>({
      name: 'api-key-verify',
      text: `SELECT k.id::text, k.name, k.scope::text AS scope, k.project_id::text AS "projectId",
                    COALESCE(k.organization_id, p.organization_id)::text AS "organizationId",
                    k.organization_id IS NOT NULL AS "organizationToken",
                    k.secret_hash AS "secretHash", k.revoked_at AS "revokedAt",
                    k.expires_at AS "expiresAt", k.last_used_at AS "lastUsedAt",
                    k.last_user_agent AS "lastUserAgent", k.last_ip AS "lastIp"
             FROM api_keys k LEFT JOIN projects p ON p.id = k.project_id
             WHERE k.public_id = $1`,
      values: [parsed.publicId],
    });
    const row = rows[0];
    if (!row || row.revokedAt || !verifyApiKeySecret(parsed.secret, row.secretHash)) return null;
    if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return null;
    this.recordUse(row, use);
    return {
      apiKeyId: row.id,
      name: row.name,
      scope: row.scope,
      projectId: row.projectId,
      organizationId: row.organizationId,
      organizationToken: row.organizationToken,
    };
  }

  /** Creates a key for a project; pass a transaction client to create it with the project. */
  async issue(
    projectId: string,
    db: Db = this.prisma,
    fields: KeyFields = {},
  ): Promise<IssuedApiKey> {
    return issueApiKey(db, { projectId }, fields);
  }

  /** The masked form of the project's newest live upload key, or null when it has none. */
  async masked(projectId: string): Promise<string | null> {
    const row = await this.prisma.apiKey.findFirst({
      where: { projectId, revokedAt: null, scope: 'upload' },
      orderBy: { createdAt: 'desc' },
      select: { publicId: true },
    });
    return row ? maskApiKey(row.publicId) : null;
  }

  /** Not awaited by verify: the caller's request must not wait for bookkeeping writes. */
  private recordUse(row: KeyRow, use: KeyUse): void {
    const ip = use.ip ?? null;
    const userAgent = use.userAgent?.slice(0, 512) ?? null;
    const stale =
      !row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS;
    if (stale || ip !== row.lastIp || userAgent !== row.lastUserAgent) {
      this.sql
        .query(
          'UPDATE api_keys SET last_used_at = now(), last_ip = $2, last_user_agent = $3 WHERE id = $1',
          [row.id, ip, userAgent],
        )
        .catch((error: unknown) =>
          this.logger.warn(`recording last use of API key ${row.id} failed: ${String(error)}`),
        );
    }
    if (ip) {
      this.recordAddress(row, ip, userAgent).catch((error: unknown) =>
        this.logger.error(`auditing a new address of API key ${row.id} failed: ${String(error)}`),
      );
    }
  }

  private async recordAddress(row: KeyRow, ip: string, userAgent: string | null): Promise<void> {
    const seen = `${row.id}|${ip}`;
    if (this.seenAddresses.has(seen)) return;
    const inserted = await this.sql.query(
      `INSERT INTO api_key_addresses (api_key_id, ip) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [row.id, ip],
    );
    if (this.seenAddresses.size >= SEEN_ADDRESSES_MAX) this.seenAddresses.clear();
    this.seenAddresses.add(seen);
    if (!inserted.rowCount) return;
    await this.audit.record({
      action: 'api_key.used_from_new_address',
      organizationId: row.organizationId,
      projectId: row.projectId,
      actor: { type: 'api_key', id: row.id, label: row.name },
      details: { key_id: row.id, key_name: row.name, ip, user_agent: userAgent },
    });
  }
}

/** Shared by the services and the test helper, so every key is created the same way. */
export async function issueApiKey(
  db: Db,
  owner: { projectId: string } | { organizationId: string },
  fields: KeyFields = {},
): Promise<IssuedApiKey> {
  const generated = generateApiKey();
  const row = await db.apiKey.create({
    data: {
      ...owner,
      publicId: generated.publicId,
      secretHash: hashApiKeySecret(generated.secret),
      ...(fields.name && { name: fields.name }),
      ...(fields.scope && { scope: fields.scope }),
      expiresAt: fields.expiresAt ?? null,
      createdById: fields.createdById ?? null,
    },
    select: { id: true },
  });
  return { apiKeyId: row.id, key: generated.key, masked: maskApiKey(generated.publicId) };
}
