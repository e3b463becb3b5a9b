import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { success, type SuccessEnvelope } from '@memtrail/contracts';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { FailedIngestion } from '@memtrail/contracts';
import { queryOf, type QueryOf } from '../http/input.js';
import { DeadLettersService } from './dead-letters.service.js';

/** Operator endpoints: ingestion jobs that failed for good (dead letters) and their retry. */
@Controller('api/admin/ingest')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly deadLetters: DeadLettersService) {}

  @Get('failed')
  async failed(
    @Query(queryOf('GET /api/admin/ingest/failed'))
    { limit }: QueryOf<'GET /api/admin/ingest/failed'>,
  ): Promise<SuccessEnvelope<{ total: number; jobs: FailedIngestion[] }>> {
    return success(await this.deadLetters.list(limit));
  }

  @Post('failed/:jobId/retry')
  @HttpCode(202)
  async retry(@Param('jobId') jobId: string): Promise<SuccessEnvelope<{ job_id: string }>> {
    await this.deadLetters.retry(jobId);
    return success({ job_id: jobId });
  }
}
