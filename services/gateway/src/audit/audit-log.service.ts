import { Inject, Injectable } from '@nestjs/common';
import type { AuditEvent, AuditEventsData } from '@memtrail/contracts';
import { PrismaClient, type AuditEvent as AuditRow } from '@memtrail/db';
import { auditWhere, type AuditFilter } from './audit-query.js';

const EXPORT_BATCH = 1000;

export function toAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id.toString(),
    action: row.action,
    project_id: row.projectId,
    actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
    details: row.details as Record<string, unknown>,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}

/** Reading an organisation's audit log: newest first, a page at a time, or all as JSON lines. */
@Injectable()
export class AuditLogService {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /** `before` is the id of the last event of the previous page. */
  async page(
    organizationId: string,
    filter: AuditFilter,
    limit: number,
    before?: bigint,
  ): Promise<AuditEventsData> {
    const rows = await this.prisma.auditEvent.findMany({
      where: { ...auditWhere(organizationId, filter), ...(before && { id: { lt: before } }) },
      orderBy: { id: 'desc' },
      take: limit + 1,
    });
    const events = rows.slice(0, limit).map(toAuditEvent);
    return {
      events,
      next_before: rows.length > limit ? (events[events.length - 1]?.id ?? null) : null,
    };
  }

  /** Every matching event, newest first, one JSON object per line, read in bounded batches. */
  async *exportLines(organizationId: string, filter: AuditFilter): AsyncGenerator<string> {
    let before: bigint | undefined;
    for (;;) {
      const rows = await this.prisma.auditEvent.findMany({
        where: { ...auditWhere(organizationId, filter), ...(before && { id: { lt: before } }) },
        orderBy: { id: 'desc' },
        take: EXPORT_BATCH,
      });
      for (const row of rows) yield `${JSON.stringify(toAuditEvent(row))}\n`;
      if (rows.length < EXPORT_BATCH) return;
      before = rows[rows.length - 1]!.id;
    }
  }
}
