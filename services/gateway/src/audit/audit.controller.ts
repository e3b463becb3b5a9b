import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { success, type AuditEventsData, type SuccessEnvelope } from '@memtrail/contracts';
import type { Response } from 'express';
import { AccessGuard, RequiresOnOrganization } from '../access/access.guard.js';
import { AuditLogService } from './audit-log.service.js';
import { queryOf, type QueryOf } from '../http/input.js';

/** `/api/orgs/{org}/audit`: the organisation's audit log, for its owners and admins. */
@Controller('api/orgs/:org/audit')
@UseGuards(AccessGuard)
@RequiresOnOrganization('audit:read')
export class AuditController {
  constructor(private readonly log: AuditLogService) {}

  @Get()
  async list(
    @Param('org') org: string,
    @Query(queryOf('GET /api/orgs/{org}/audit')) query: QueryOf<'GET /api/orgs/{org}/audit'>,
  ): Promise<SuccessEnvelope<AuditEventsData>> {
    const { limit, before, ...filter } = query;
    return success(await this.log.page(org, filter, limit, before));
  }

  /** Every matching event as JSON lines, streamed (no size limit, bounded memory). */
  @Get('export')
  async export(
    @Param('org') org: string,
    @Query(queryOf('GET /api/orgs/{org}/audit/export'))
    filter: QueryOf<'GET /api/orgs/{org}/audit/export'>,
    @Res() res: Response,
  ): Promise<void> {
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
