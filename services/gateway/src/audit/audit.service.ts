import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient, type Prisma } from '@memtrail/db';
import type { Request } from 'express';
import type { ApiKeyPrincipal } from '../api-keys/api-key-principal.js';
import type { AuthenticatedUser } from '../auth/jwt.strategy.js';

export interface AuditActor {
  type: 'user' | 'api_key' | 'system';
  id?: string | null;
  /** The user's email or the key's name, copied so the event outlives them. */
  label?: string | null;
}

export interface AuditEntry {
  action: string;
  /** Derived from projectId when omitted. */
  organizationId?: string;
  projectId?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to who made `request`. */
  actor?: AuditActor;
}

type Db = PrismaClient | Prisma.TransactionClient;

/** Who made a request: the signed-in user or the API key the guards admitted. */
export function actorOf(req: Request): AuditActor {
  const user = req.user as AuthenticatedUser | undefined;
  if (user) return { type: 'user', id: user.userId, label: user.email };
  const key = (req as Request & { apiKey?: ApiKeyPrincipal }).apiKey;
  if (key) return { type: 'api_key', id: key.apiKeyId, label: key.name };
  return { type: 'system' };
}

/**
 * The audit log: one row per action, per organisation. Any module records with
 * `audit.record({ action: 'project.renamed', projectId, details }, req)`; pass a transaction
 * client as `db` to record in the same transaction as the change. A failed write fails the
 * caller: an action that cannot be audited is not done silently.
 */
@Injectable()
export class AuditService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async record(entry: AuditEntry, req?: Request, db: Db = this.prisma): Promise<void> {
    const organizationId = entry.organizationId ?? (await this.organizationOf(entry.projectId, db));
    const actor = entry.actor ?? (req ? actorOf(req) : { type: 'system' as const });
    await db.auditEvent.create({
      data: {
        organizationId,
        projectId: entry.projectId ?? null,
        actorType: actor.type,
        actorId: actor.id ?? null,
        actorLabel: actor.label ?? null,
        action: entry.action,
        details: (entry.details ?? {}) as Prisma.InputJsonObject,
        ip: req?.ip ?? null,
        userAgent: req?.headers['user-agent']?.slice(0, 512) ?? null,
      },
    });
  }

  /** The same event in several organisations (a sign-in is seen by each of the user's). */
  async recordInEach(organizationIds: string[], entry: AuditEntry, req?: Request): Promise<void> {
    for (const organizationId of organizationIds) {
      await this.record({ ...entry, organizationId }, req);
    }
  }

  private async organizationOf(projectId: string | null | undefined, db: Db): Promise<string> {
    if (!projectId) throw new Error('AuditService.record: organizationId or projectId is required');
    const project = await db.project.findUnique({
      where: { id: projectId },
      select: { organizationId: true },
    });
    if (!project) throw new Error(`AuditService.record: project ${projectId} does not exist`);
    return project.organizationId;
  }
}
