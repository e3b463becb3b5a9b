import { BadRequestException } from '@nestjs/common';
import type { Prisma } from '@memtrail/db';

export interface AuditFilter {
  /** An exact action, or a prefix ending in "." ("api_key." matches every key event). */
  action?: string;
  /** Part of the actor's email or key name, or the actor's id. */
  actor?: string;
  projectId?: string;
  from?: Date;
  to?: Date;
}

type Raw = Record<string, unknown>;

function text(query: Raw, name: string, max: number): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max) {
    throw new BadRequestException(`${name} must be text of at most ${max} characters`);
  }
  return value;
}

function date(query: Raw, name: string): Date | undefined {
  const value = text(query, name, 40);
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) {
    throw new BadRequestException(`${name} must be an ISO 8601 date or time`);
  }
  return parsed;
}

/** Filters from `?action=&actor=&project=&from=&to=`; 400 naming the bad parameter. */
export function parseAuditFilter(query: Raw): AuditFilter {
  const projectId = text(query, 'project', 36);
  if (projectId && !/^[0-9a-f-]{36}$/i.test(projectId)) {
    throw new BadRequestException('project must be a project id');
  }
  return {
    action: text(query, 'action', 100),
    actor: text(query, 'actor', 254),
    projectId,
    from: date(query, 'from'),
    to: date(query, 'to'),
  };
}

export function auditWhere(organizationId: string, f: AuditFilter): Prisma.AuditEventWhereInput {
  return {
    organizationId,
    ...(f.action &&
      (f.action.endsWith('.') ? { action: { startsWith: f.action } } : { action: f.action })),
    ...(f.actor && {
      OR: [{ actorLabel: { contains: f.actor, mode: 'insensitive' } }, { actorId: f.actor }],
    }),
    ...(f.projectId && { projectId: f.projectId }),
    ...((f.from || f.to) && {
      createdAt: { ...(f.from && { gte: f.from }), ...(f.to && { lt: f.to }) },
    }),
  };
}
