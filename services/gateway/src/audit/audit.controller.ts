import { BadRequestException, Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { success, type AuditEventsData, type SuccessEnvelope } from '@memtrail/contracts';
import type { Response } from 'express';
import { AccessGuard, RequiresOnOrganization } from '../access/access.guard.js';
import { AuditLogService } from './audit-log.service.js';
import { parseAuditFilter } from './audit-query.js';

type Raw = Record<string, unknown>;

function limit(query: Raw): number {
  const raw = query.limit ?? '50';
  const value = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(value) || value < 1 || value > 200) {
    throw new BadRequestException('limit must be an integer from 1 to 200');
  }
  return value;
}

function before(query: Raw): bigint | undefined {
  const raw = query.before;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^[0-9]{1,19}$/.test(raw)) {
    throw new BadRequestException('before must be an event id');
  }
  return BigInt(raw);
}

/** `/api/orgs/{org}/audit`: the organisation's audit log, for its owners and admins. */
@Controller('api/orgs/:org/audit')
@UseGuards(AccessGuard)
@RequiresOnOrganization('audit:read')
export class AuditController {
  constructor(private readonly log: AuditLogService) {}

  @Get()
  async list(
    @Param('org') org: string,
    @Query() query: Raw,
  ): Promise<SuccessEnvelope<AuditEventsData>> {
    return success(await this.log.page(org, parseAuditFilter(query), limit(query), before(query)));
  }

  /** Every matching event as JSON lines, streamed (no size limit, bounded memory). */
  @Get('export')
  async export(
    @Param('org') org: string,
    @Query() query: Raw,
    @Res() res: Response,
  ): Promise<void> {
    const filter = parseAuditFilter(query);
    res.status(200).attachment(`audit-${org}.jsonl`).type('application/x-ndjson');
    try {
      for await (const line of this.log.exportLines(org, filter)) {
        if (!res.write(line)) await new Promise((resolve) => res.once('drain', resolve));
      }
    } catch (error) {
      // Once lines are out, the status is sent: a cut connection is the only honest signal.
      if (res.headersSent) return void res.destroy(error as Error);
      throw error;
    }
    res.end();
  }
}
