import { Controller, Get, Query, UseFilters, UseGuards } from '@nestjs/common';
import type { SummaryResponse } from '@memtrail/contracts';
import {
  AcceptsKeyScopes,
  ApiKeyGuard,
  ApiKeyProject,
  type ApiKeyPrincipal,
} from '../api-keys/index.js';
import { UploadExceptionFilter } from '../upload/upload-exception.filter.js';
import { queryOf, type QueryOf } from '../http/input.js';
import { SummaryRateLimitGuard } from './summary-rate-limit.guard.js';
import { SummaryService } from './summary.service.js';

/** The PR-comment summary, at the MemBrowse CLI's path and ours. */
@Controller()
@UseFilters(UploadExceptionFilter)
@UseGuards(ApiKeyGuard, SummaryRateLimitGuard)
@AcceptsKeyScopes('upload', 'read')
export class SummaryController {
  constructor(private readonly summaries: SummaryService) {}

  @Get(['summary', 'api/summary', 'api/v1/summary'])
  async summary(
    @ApiKeyProject() key: ApiKeyPrincipal,
    @Query(queryOf('GET /summary')) { commit }: QueryOf<'GET /summary'>,
  ): Promise<SummaryResponse> {
    return { success: true, data: await this.summaries.summary(key.projectId, commit) };
  }
}
