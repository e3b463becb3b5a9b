import type { Prisma } from '@memtrail/db';
import type { QueryOf } from '../http/input.js';

/** Filters of `?action=&actor=&project=&from=&to=` (AuditFilterQuery in contracts). */
export type AuditFilter = QueryOf<'GET /api/orgs/{org}/audit/export'>;

export function auditWhere(organizationId: string, f: AuditFilter): Prisma.AuditEventWhereInput {
  return {
    organizationId,
    ...(f.action &&
      (f.action.endsWith('.') ? { action: { startsWith: f.action } } : { action: f.action })),
    ...(f.actor && {
      OR: [{ actorLabel: { contains: f.actor, mode: 'insensitive' } }, { actorId: f.actor }],
    }),
    ...(f.project && { projectId: f.project }),
    ...((f.from || f.to) && {
      createdAt: { ...(f.from && { gte: f.from }), ...(f.to && { lt: f.to }) },
    }),
  };
}
