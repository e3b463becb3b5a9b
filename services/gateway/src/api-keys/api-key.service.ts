import { Inject, Injectable, Logger } from '@nestjs/common';
import { PrismaClient, SqlPool, type Prisma } from '@memtrail/db';
import {
  generateApiKey,
  hashApiKeySecret,
  maskApiKey,
  parseApiKey,
  verifyApiKeySecret,
} from './api-key-format.js';

/** Who an accepted API key speaks for. */
export interface ApiKeyPrincipal {
  projectId: string;
  apiKeyId: string;
}

export interface IssuedApiKey {
  apiKeyId: string;
  /** The full key: return it to the user once, it cannot be recovered later. */
  key: string;
  masked: string;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** `last_used_at` is a hint for the UI: writing it on every upload would be wasted load. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);

  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    // Every upload verifies a key: plain SQL keeps that off Prisma's per-query cost.
    @Inject(SqlPool) private readonly sql: SqlPool,
  ) {}

  /**
   * The project a raw key (`mt_<publicId>_<secret>`) belongs to, or null when the key is
   * malformed, unknown, revoked or its secret does not match. Never throws for bad input.
   */
  async verify(rawKey: string): Promise<ApiKeyPrincipal | null> {
    const parsed = parseApiKey(rawKey);
    if (!parsed) return null;
    const { rows } = await this.sql.query<{
      id: string;
      projectId: string;
      secretHash: string;
      revokedAt: Date | null;
      lastUsedAt: Date | null;
    }>(
      `SELECT id::text, project_id::text AS "projectId", secret_hash AS "secretHash",
              revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
       FROM api_keys WHERE public_id = $1`,
      [parsed.publicId],
    );
    const row = rows[0];
    if (!row || row.revokedAt || !verifyApiKeySecret(parsed.secret, row.secretHash)) return null;
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      this.touch(row.id);
    }
    return { projectId: row.projectId, apiKeyId: row.id };
  }

  /** Creates a key for a project; pass a transaction client to create it with the project. */
  async issue(projectId: string, db: Db = this.prisma): Promise<IssuedApiKey> {
    return issueApiKey(db, projectId);
  }

  /** Revokes every live key of the project and issues a new one, atomically. */
  async regenerate(projectId: string): Promise<IssuedApiKey> {
    return this.prisma.$transaction(async (tx) => {
      await tx.apiKey.updateMany({
        where: { projectId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      return issueApiKey(tx, projectId);
    });
  }

  /** The masked form of the project's live key, or null when it has none. */
  async masked(projectId: string): Promise<string | null> {
    const row = await this.prisma.apiKey.findFirst({
      where: { projectId, revokedAt: null },
      orderBy: { createdAt: 'desc' },
      select: { publicId: true },
    });
    return row ? maskApiKey(row.publicId) : null;
  }

  private touch(apiKeyId: string): void {
    // Not awaited: the caller's request must not wait for a bookkeeping write.
    this.sql
      .query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [apiKeyId])
      .catch((error: unknown) =>
        this.logger.warn(`recording last use of API key ${apiKeyId} failed: ${String(error)}`),
      );
  }
}

/** Shared by the service and the test helper, so both create keys the same way. */
export async function issueApiKey(db: Db, projectId: string): Promise<IssuedApiKey> {
  const generated = generateApiKey();
  const row = await db.apiKey.create({
    data: {
      projectId,
      publicId: generated.publicId,
      secretHash: hashApiKeySecret(generated.secret),
    },
    select: { id: true },
  });
  return { apiKeyId: row.id, key: generated.key, masked: maskApiKey(generated.publicId) };
}
